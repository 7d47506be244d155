// Name and age.
import { objectTokens, type Clause } from '../clause.ts';
import { factAbout, userFact, type RuleContext, type TypedFact } from '../fact.ts';
import type { Tok } from '../nlp.ts';
import { properName } from '../phrases.ts';
import { DAY_OF_YEAR } from '../dates.ts';
import { singular, wholeNumber } from '../vocabulary.ts';

/** "My name is Dana Ruiz", "call me Dee", "I go by Sam", "Hi, I'm Dana." */
export function name(c: Clause, ctx: RuleContext): TypedFact[] {
  if (c.negated) return [];
  const rest = objectTokens(c);
  let n: string | null = null;
  if (c.subject.kind === 'possession' && c.subject.noun === 'name' && c.verb === 'be') {
    n = properName(rest, 0)?.text ?? null;
    return n
      ? factAbout(
          { ...c, subject: { kind: 'user', plural: false } },
          'name',
          n,
          `'s name is ${n}`,
          { identity: true, salience: 0.95 },
        ).map(fixPossessive)
      : [];
  }
  if (c.subject.kind !== 'user' || c.subject.plural) return [];
  // "Call me Dee" (wink may read the sentence-initial "Call" as a name).
  const call = c.toks[c.subjectEnd]?.norm === 'call' && c.toks[c.subjectEnd + 1]?.norm === 'me';
  if (call) n = properName(c.toks, c.subjectEnd + 2)?.text ?? null;
  else if (c.verb === 'call' && rest[0]?.norm === 'me') n = properName(rest, 1)?.text ?? null;
  else if (c.verb === 'go' && rest[0]?.norm === 'by') n = properName(rest, 1)?.text ?? null;
  else if (c.verb === 'be' && ctx.greeted && rest[0]?.pos === 'PROPN') {
    // "Hi, I am Dana": only after a greeting is "I am <Name>" an introduction.
    const p = properName(rest, 0);
    const after = p ? rest[p.end] : undefined;
    if (p && (!after || after.pos === 'PUNCT' || after.norm === 'and')) n = p.text;
  }
  if (!n) return [];
  return factAbout(c, 'name', n, `'s name is ${n}`, { identity: true, salience: 0.95 }).map(
    fixPossessive,
  );
}

/**
 * "I'm 34", "I am 34 years old", "I just turned 40", "my son Luca is 4", "my daughter Ines
 * turns seven next week", "my dad is seventy-two".
 */
export function age(c: Clause): TypedFact[] {
  if (c.negated) return [];
  if (c.subject.kind === 'user' ? c.subject.plural : c.subject.kind !== 'relative') return [];
  // "My kids are 7 and 4": several people, no one age.
  if (c.subject.kind === 'relative' && singular(c.subject.noun) !== c.subject.noun) return [];
  const rest = objectTokens(c);
  // "I'm Dana, 34, and ...": an introduction gives the age after the name.
  const afterName = c.verb === 'be' && c.subject.kind === 'user' ? introducedAge(rest) : 0;
  const said = ageSaid(rest.slice(afterName));
  if (!said) return [];
  const years = said.years;
  const end = said.end + afterName;
  if (years < 1 || years > 120) return [];
  if (c.verb === 'be') {
    const after = rest[end];
    const isAge = !after || after.pos === 'PUNCT' || after.norm === 'years' || after.norm === 'and';
    if (!isAge) return [];
  } else if (c.verb !== 'turn') return [];
  // A relative's age is theirs by name: two kids' ages must not supersede each other.
  if (c.subject.kind === 'relative' && c.subject.name) {
    return relativeAge(singular(c.subject.noun), c.subject.name, years);
  }
  return factAbout(c, 'age', String(years), `is ${years} years old`, {
    identity: c.subject.kind === 'user',
    salience: 0.8,
  });
}

/** Where the age starts after a name set off by a comma ("Dana, 34"); 0 when there is none. */
function introducedAge(rest: readonly Tok[]): number {
  const name = properName(rest, 0);
  return name && rest[name.end]?.norm === ',' ? name.end + 1 : 0;
}

/** A number of years at the start of `rest`, in digits or words ("34", "seven", "forty-one"). */
function ageSaid(rest: readonly Tok[]): { years: number; end: number } | null {
  const first = rest[0];
  if (!first) return null;
  // wink writes "forty-one" as three tokens.
  if (rest[1]?.norm === '-' && rest[2]) {
    const joined = wholeNumber(`${first.norm}-${rest[2].norm}`);
    if (joined !== null) return { years: joined, end: 3 };
  }
  // Words only where wink reads a number: "one" is also a pronoun ("I'm one of them").
  if (!/^\d+$/u.test(first.norm) && first.pos !== 'NUM') return null;
  const years = wholeNumber(first.norm);
  return years === null ? null : { years, end: 1 };
}

/** "User's son Luca is 4 years old", keyed by the relative's name (age is single-valued). */
export function relativeAge(noun: string, name: string, years: number): TypedFact[] {
  return userFact('age', String(years), `User's ${noun} ${name} is ${years} years old`, {
    subject: `user's ${noun} ${name.toLowerCase()}`,
    salience: 0.6,
  });
}

function fixPossessive(f: TypedFact): TypedFact {
  return { ...f, text: f.text.replace(/ 's name/, "'s name") };
}

/**
 * "My birthday is on August 14", "my birthday's the 21st of March", "my sister's birthday is
 * June 3rd", "I was born on 3 May 1990": the day, as said. Keyed by whose birthday it is, so a
 * sister's never supersedes the user's.
 */
export function birthday(c: Clause): TypedFact[] {
  if (c.negated || c.verb === null) return [];
  const said = objectTokens(c)
    .map((t) => t.text)
    .join(' ');
  const day = DAY_OF_YEAR.exec(said)?.[0];
  if (day === undefined) return [];
  const date = day.replace(/^the\s+/iu, '').replace(/\s+/gu, ' ');
  const whole = c.toks.map((t) => t.text).join(' ');
  const own = c.subject.kind === 'possession' && c.subject.noun === 'birthday' && c.verb === 'be';
  const born =
    c.subject.kind === 'user' &&
    !c.subject.plural &&
    c.verb === 'bear' &&
    /\bborn\s+on\b/iu.test(whole);
  // The day is the birthday itself, not when the fact became true.
  const timeless = (f: TypedFact): TypedFact => ({ ...f, timeless: true });
  if (own || born) {
    return userFact('birthday', date, `User's birthday is ${date}`, { salience: 0.8 }).map(
      timeless,
    );
  }
  // "my sister's birthday is June 3rd": the relative's, by relation (and name when given).
  if (
    c.subject.kind === 'relative' &&
    c.verb === 'be' &&
    /['’]\s*s\s+birthday\s+(?:is|'s)\b/iu.test(whole)
  ) {
    const noun = singular(c.subject.noun);
    const who = c.subject.name ? `${noun} ${c.subject.name}` : noun;
    return userFact('birthday', date, `User's ${who}'s birthday is ${date}`, {
      subject: `user's ${who.toLowerCase()}`,
      salience: 0.6,
    }).map(timeless);
  }
  return [];
}
