// Tools and tech stack.
import { objectTokens, type Clause } from '../clause.ts';
import { factAbout, type TypedFact } from '../fact.ts';
import { nounList, nounPhrase } from '../phrases.ts';
import type { Phrase } from '../phrases.ts';
import { isProgrammingContext } from '../vocabulary.ts';

/** Whether the clause is about building software (then a named thing is part of the stack). */
function aboutCode(c: Clause, items: readonly Phrase[]): boolean {
  if (c.verb === 'code' || c.verb === 'program' || c.verb === 'develop') return true;
  if (c.subject.kind === 'possession' && c.subject.noun.split(' ').some(isProgrammingContext))
    return true;
  return (
    c.toks.some((t) => isProgrammingContext(t.lemma)) ||
    items.some((i) => isProgrammingContext(i.head))
  );
}

/** Named things only: "Postgres", "VS Code", "GitHub Actions"; not "a knife". */
function named(items: Phrase[]): Phrase[] {
  return items.filter((p) => p.proper && !p.none);
}

/** "We use Postgres and React", "I code in Rust", "I use Obsidian for notes", "our stack is Go and Kafka". */
export function techUse(c: Clause): TypedFact[] {
  if (c.negated) return [];
  const rest = objectTokens(c);
  let items: Phrase[] = [];
  let verb = 'uses';
  if (c.verb === 'use' || c.verb === 'run' || c.verb === 'rely') {
    items = named(nounList(rest, rest[0]?.norm === 'on' ? 1 : 0));
  } else if (
    (c.verb === 'code' ||
      c.verb === 'program' ||
      c.verb === 'write' ||
      c.verb === 'develop' ||
      c.verb === 'work') &&
    rest[0]?.norm === 'in'
  ) {
    items = named(nounList(rest, 1));
    verb = c.verb === 'work' ? 'works in' : 'codes in';
  } else if (
    c.verb === 'be' &&
    c.subject.kind === 'possession' &&
    c.subject.noun.split(' ').some(isProgrammingContext)
  ) {
    items = named(nounList(rest, rest[0]?.norm === 'on' || rest[0]?.norm === 'in' ? 1 : 0));
    return items.flatMap((p) =>
      factAbout(
        { ...c, subject: { kind: 'user', plural: false } },
        'stack',
        p.text,
        `uses ${p.text} (${c.subject.kind === 'possession' ? c.subject.noun : 'stack'})`,
        { salience: 0.6 },
      ),
    );
  }
  if (items.length === 0) return [];
  const relation = aboutCode(c, items) ? 'stack' : 'tool';
  return items.flatMap((p) =>
    factAbout(c, relation, p.text, `${verb} ${p.text}`, { salience: 0.6 }),
  );
}

/** A noun phrase read from the start of `c`'s object: used by `switched` to type its values. */
export function objectPhrase(c: Clause, from: number): Phrase | null {
  return nounPhrase(objectTokens(c), from);
}
