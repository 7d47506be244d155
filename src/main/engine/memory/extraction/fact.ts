// What a rule returns: one typed fact (DESIGN §6), third person, with its relation and
// object, a date when the statement gives one, and whether it says the fact ended.
import type { Relation } from '../../text/relations.ts';
import type { WordVectors } from '../../vector/word-vectors.ts';
import type { Clause } from './clause.ts';
import { subjectKey, subjectText } from './phrases.ts';

export interface TypedFact {
  /** Who the fact is about: "user", "user's sister" (lower case), written by the engine. */
  subject: string;
  relation: Relation | null;
  /** The value ("Lisbon", "Priya Raman", "green tea"); "" = any value (an ended fact). */
  object: string;
  /** Third person: "User lives in Lisbon", "User's manager is Priya Raman". */
  text: string;
  /** ms: the date the statement gives (moved "in March"); null = when it was said. */
  validFrom: number | null;
  /** The statement says this no longer holds ("we no longer use X", "I quit my job at X"). */
  ended: boolean;
  salience: number;
  /** Also an always-on identity override (name, age, home, job, employer). */
  identity: boolean;
  /** A plan: also an episode action item. */
  plan: boolean;
  /** A decision ("we decided to use Postgres"): also an episode decision. */
  decision?: boolean;
  /**
   * The clause's date and ending are not this fact's ("My friend Rui moved in May": Rui is not
   * new; "my sister Ana no longer lives in Rome": Ana is still a sister).
   */
  timeless?: boolean;
}

export interface RuleContext {
  /** When the message was written (ms): dates are resolved against it. */
  at: number;
  /** The message opened with a greeting ("Hi, I am Dana" names the speaker). */
  greeted: boolean;
  /**
   * Word meaning (static word vectors), once loaded: rules that type a fact by what its words
   * mean use it, and are skipped while it is null.
   */
  words?: WordVectors | null;
}

/** A named rule: reads one clause, returns the facts it states (usually none). */
export type Rule = (c: Clause, ctx: RuleContext) => TypedFact[];

export interface FactOptions {
  salience?: number;
  identity?: boolean;
  ended?: boolean;
  plan?: boolean;
  validFrom?: number | null;
}

/** A fact about the clause's subject: `predicate` follows the subject ("lives in Lisbon"). */
export function factAbout(
  c: Clause,
  relation: Relation | null,
  object: string,
  predicate: string,
  o: FactOptions = {},
): TypedFact[] {
  const subject = subjectKey(c.subject);
  if (subject === null || object.trim() === '') return [];
  return [
    {
      subject,
      relation,
      object: object.trim(),
      text: `${subjectText(c.subject)} ${predicate}`.replace(/\s+/g, ' ').trim(),
      validFrom: o.validFrom ?? null,
      ended: o.ended ?? false,
      salience: o.salience ?? 0.6,
      identity: o.identity ?? false,
      plan: o.plan ?? false,
    },
  ];
}

/** A fact written out in full (subject "user" unless given): "User's manager is Priya". */
export function userFact(
  relation: Relation | null,
  object: string,
  text: string,
  o: FactOptions & { subject?: string } = {},
): TypedFact[] {
  if (object.trim() === '') return [];
  return [
    {
      subject: o.subject ?? 'user',
      relation,
      object: object.trim(),
      text,
      validFrom: o.validFrom ?? null,
      ended: o.ended ?? false,
      salience: o.salience ?? 0.6,
      identity: o.identity ?? false,
      plan: o.plan ?? false,
    },
  ];
}
