// Running one extraction rule over a sentence, as the engine would give it its clauses.
import { clausesOf } from '../../src/main/engine/memory/extraction/clause.ts';
import type { Rule, TypedFact } from '../../src/main/engine/memory/extraction/fact.ts';
import { analyse } from '../../src/main/engine/memory/extraction/nlp.ts';
import type { WordVectors } from '../../src/main/engine/vector/word-vectors.ts';

/** Thursday 2 May 2024, noon UTC: the "message date" of rule tests. */
export const SAID_AT = Date.UTC(2024, 4, 2, 12);

/**
 * The facts `rule` reads from every clause of `sentence` (no engine filters); `words` for a
 * rule that needs word meaning.
 */
export function applyRule(
  rule: Rule,
  sentence: string,
  greeted = false,
  words: WordVectors | null = null,
): TypedFact[] {
  const ctx = { at: SAID_AT, greeted, words };
  return analyse(sentence)
    .flatMap((s) => clausesOf(s))
    .flatMap((c) => rule(c, ctx));
}

/** "text [subject|relation|object]" of each fact: one readable string to assert on. */
export function brief(facts: readonly TypedFact[]): string[] {
  return facts.map(
    (f) => `${f.text} [${f.subject}|${f.relation ?? '-'}|${f.object}${f.ended ? '|ended' : ''}]`,
  );
}
