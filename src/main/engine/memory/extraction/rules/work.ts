// Job title and employer, and leaving a job.
import { objectTokens, type Clause } from '../clause.ts';
import { factAbout, type TypedFact } from '../fact.ts';
import { article, indexOfWord, nounPhrase, properName } from '../phrases.ts';
import { isJob } from '../vocabulary.ts';

/** The employer after "at"/"for" in `rest` from `from` (a name: "Shopify", "the BBC"). */
function employerAt(rest: ReturnType<typeof objectTokens>, from: number): string | null {
  for (let i = from; i < rest.length; i++) {
    if (rest[i]!.norm === 'at' || rest[i]!.norm === 'for' || rest[i]!.norm === 'with') {
      const j = rest[i + 1]?.norm === 'the' ? i + 2 : i + 1;
      return properName(rest, j)?.text ?? null;
    }
    if (rest[i]!.pos === 'PUNCT' || rest[i]!.pos === 'VERB') return null;
  }
  return null;
}

/** "I work as a nurse", "I'm a data engineer at Shopify", "my wife is a teacher". */
export function jobTitle(c: Clause): TypedFact[] {
  const rest = objectTokens(c);
  let at = -1;
  const as = rest.findIndex((t, k) => t.norm === 'as' && k < 6);
  // "I work as a nurse", "I work at Acme as a data engineer"
  if (c.verb === 'work' && as >= 0) at = as + 1;
  else if (
    (c.verb === 'be' || c.verb === 'become') &&
    (rest[0]?.norm === 'a' || rest[0]?.norm === 'an')
  )
    at = 0;
  if (at < 0) return [];
  const np = nounPhrase(rest, at);
  if (!np || !isJob(np.text) || /^(?:big|huge|bit|little|fan)\b/i.test(np.text)) return [];
  const past = c.past;
  const job = np.text;
  const out = factAbout(c, 'job', job, `${past ? 'was' : 'is'} ${article(job)} ${job}`, {
    identity: !past && c.subject.kind === 'user',
    ended: past,
    salience: 0.85,
  });
  const employer = employerAt(rest, np.end) ?? (as > 0 ? employerAt(rest, 0) : null);
  if (employer) {
    out.push(
      ...factAbout(c, 'works_at', employer, `${past ? 'worked' : 'works'} at ${employer}`, {
        identity: !past && c.subject.kind === 'user',
        ended: past,
        salience: 0.85,
      }),
    );
  }
  return out;
}

/** "have been ... for two years", "since 2019": a stay of months or years, not a visit. */
function longStay(c: Clause): boolean {
  const perfect = c.toks.slice(0, c.verbAt).some((t) => t.lemma === 'have');
  const lasting = c.toks.some(
    (t) => t.norm === 'since' || (t.ent === 'DURATION' && /^(?:year|month|decade)s?$/.test(t.norm)),
  );
  return perfect && lasting;
}

const JOINING = new Set(['join', 'start', 'get', 'hire', 'accept']);

/** "I work at Shopify", "I joined Stripe in May", "I got a job at the BBC". */
export function employer(c: Clause): TypedFact[] {
  const rest = objectTokens(c);
  let name: string | null = null;
  if (c.verb === 'work' && (rest[0]?.norm === 'at' || rest[0]?.norm === 'for')) {
    name = employerAt(rest, 0);
  } else if (c.verb === 'be' && rest[0]?.norm === 'at' && longStay(c)) {
    // "I've been at Acme for two years": where one spends years is where one works.
    name = properName(rest, rest[1]?.norm === 'the' ? 2 : 1)?.text ?? null;
  } else if (c.verb === 'start' && rest[0]?.norm === 'at') {
    name = properName(rest, rest[1]?.norm === 'the' ? 2 : 1)?.text ?? null;
  } else if (c.verb === 'join') {
    name = properName(rest, rest[0]?.norm === 'the' ? 1 : 0)?.text ?? null;
  } else if (JOINING.has(c.verb)) {
    // "started a new job at X", "got hired by X", "accepted an offer from X"
    const job = indexOfWord(rest, 'job');
    const at = ['at', 'by', 'from', 'with'].map((w) => indexOfWord(rest, w)).filter((i) => i >= 0);
    if (
      (job >= 0 ||
        c.verb === 'hire' ||
        indexOfWord(rest, 'offer') >= 0 ||
        indexOfWord(rest, 'working') >= 0) &&
      at.length
    ) {
      const i = Math.min(...at);
      name = properName(rest, rest[i + 1]?.norm === 'the' ? i + 2 : i + 1)?.text ?? null;
    }
  }
  if (!name) return [];
  if (c.future) {
    return factAbout(c, 'plans', `start at ${name}`, `is starting at ${name}`, { plan: true });
  }
  const past = c.past && c.verb === 'work';
  return factAbout(c, 'works_at', name, `${past ? 'worked' : 'works'} at ${name}`, {
    identity: !past && c.subject.kind === 'user',
    ended: past,
    salience: 0.85,
  });
}

const LEAVING = new Set(['quit', 'leave', 'resign', 'retire']);

/** "I quit my job at Deloitte", "I left Google", "I was laid off from Acme". */
export function leftJob(c: Clause): TypedFact[] {
  const rest = objectTokens(c);
  const laidOff = c.verb === 'lay' && rest[0]?.norm === 'off';
  if (!LEAVING.has(c.verb) && !laidOff) return [];
  if (c.future || c.negated) return [];
  let name: string | null = null;
  const fromAt = ['at', 'from', 'with'].map((w) => indexOfWord(rest, w)).filter((i) => i >= 0);
  if (fromAt.length) {
    const i = Math.min(...fromAt);
    name = properName(rest, rest[i + 1]?.norm === 'the' ? i + 2 : i + 1)?.text ?? null;
  } else if (c.verb === 'leave' || c.verb === 'quit') {
    name = properName(rest, 0)?.text ?? null;
  }
  const mentionsJob =
    indexOfWord(rest, 'job') >= 0 || laidOff || c.verb === 'resign' || c.verb === 'retire';
  if (!name && !mentionsJob) return [];
  const job = name ? `their job at ${name}` : 'their job';
  const text = laidOff
    ? `was laid off${name ? ` from ${name}` : ''}`
    : c.verb === 'retire' || c.verb === 'resign'
      ? `${c.verb}d${name ? ` from ${name}` : ''}`
      : c.verb === 'leave' && name && !fromAt.length && !mentionsJob
        ? `left ${name}`
        : `${c.verb === 'leave' ? 'left' : 'quit'} ${job}`;
  return factAbout(c, 'works_at', name ?? '*', text, { ended: true, salience: 0.8 });
}
