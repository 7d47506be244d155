// Pets with their species and name ("we adopted a beagle named Biscuit").
import { objectTokens, type Clause } from '../clause.ts';
import { userFact, type TypedFact } from '../fact.ts';
import { afterListJoin, nounList } from '../phrases.ts';
import { isSpecies, singular } from '../vocabulary.ts';
import { namesAfter, relationText } from './people.ts';

const GETTING = new Set(['have', 'own', 'adopt', 'rescue', 'get', 'foster', 'buy']);

/**
 * "We adopted a beagle named Biscuit", "I have two cats, Miso and Tofu", "I have a dog", "we
 * have a dog called Rex and a cat called Tom".
 */
export function petOwned(c: Clause): TypedFact[] {
  if (c.subject.kind !== 'user') return [];
  const rest = objectTokens(c);
  // "we brought home a rescue greyhound": an animal brought home is the user's.
  const broughtHome = c.verb === 'bring' && rest[0]?.norm === 'home';
  if (!GETTING.has(c.verb) && !broughtHome) return [];
  const out: TypedFact[] = [];
  let from = rest[0]?.norm === 'got' || broughtHome ? 1 : 0;
  while (from >= 0) {
    const nps = nounList(rest, from);
    from = -1;
    for (const [k, np] of nps.entries()) {
      const named = namesAfter(rest, np.end);
      // "a dog called Rex and a cat called Tom": the list goes on after the names.
      const next = afterListJoin(rest, named.end);
      if (k === nps.length - 1 && named.names.length && next > named.end) from = next;
      // "leftover roast chicken": an animal word without an article is food or a material.
      if (np.none || !np.countable || !isSpecies(np.head)) continue;
      const species = singular(np.head);
      if (named.names.length) {
        for (const n of named.names) {
          out.push(...userFact('pet', n, relationText('pet', species, n), { salience: 0.8 }));
        }
      } else {
        const owns = c.verb === 'have' || c.verb === 'own' || !c.past;
        const verb = owns ? 'has' : broughtHome ? 'brought home' : c.toks[c.verbAt]!.norm;
        const what = np.text.includes(' ') ? np.text : `a ${species}`;
        out.push(...userFact('pet', species, `User ${verb} ${what}`, { salience: 0.75 }));
      }
    }
  }
  return out;
}
