// Forget means forget (DESIGN §6): a line of a memory block that states a forgotten fact is
// left out, wherever it comes from (a transcript line with the same words, an episode
// summary). A line states a fact when it holds nearly all of the fact's content words: the
// words are compared by a short stem, so "allergic to cats" also matches "I'm allergic to my
// cat". "User" (the subject of nearly every fact) is not a content word.
import { queryTerms, words } from '../text/text.ts';

/**
 * Share of a fact's content words a line must hold to state it (at least two of them): the
 * verb of a fact often differs from the words the user said ("drinks green tea" / "switched
 * to green tea"), its objects do not.
 */
const STATES_SHARE = 0.6;

const stemOf = (w: string) => (w.length > 4 ? w.slice(0, 4) : w);

export interface ForgottenWording {
  /** Stemmed content words of the forgotten fact. */
  stems: readonly string[];
}

export function forgottenWording(content: string): ForgottenWording | null {
  const stems = [
    ...new Set(
      queryTerms(content)
        .filter((w) => w !== 'user')
        .map(stemOf),
    ),
  ];
  return stems.length === 0 ? null : { stems };
}

/** Whether a line states one of the forgotten facts. */
export function statesForgotten(line: string, forgotten: readonly ForgottenWording[]): boolean {
  if (forgotten.length === 0) return false;
  const have = new Set(words(line).map(stemOf));
  return forgotten.some((f) => {
    const held = f.stems.filter((s) => have.has(s)).length;
    const need =
      f.stems.length <= 2 ? f.stems.length : Math.max(2, Math.ceil(STATES_SHARE * f.stems.length));
    return held >= need;
  });
}
