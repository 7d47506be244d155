// Reading a memory block the way a model might be fooled by it: delimiters and their
// look-alikes, counted after folding case, compatibility forms (full-width), accents,
// Cyrillic/Greek homoglyphs and invisible characters, with any bracket-like character taken as
// a bracket. Used by the tests that feed adversarial memory through the planner and the proxy.
import { skeleton } from '../../src/main/engine/memory/neutralise.ts';

const OPEN = /[[<({\p{Ps}\p{Pi}＜﹤˂ᐸ‹]/u;
const CLOSE = /[\]>)}\p{Pe}\p{Pf}＞﹥˃ᐳ›]/u;

/** Each character folded: brackets to [ ], letters to their Latin look-alike, invisibles gone. */
export function foldForReading(text: string): string {
  let out = '';
  for (const ch of text) {
    if (/\p{Cf}/u.test(ch)) continue;
    if (OPEN.test(ch)) out += '[';
    else if (CLOSE.test(ch)) out += ']';
    else if (/\s/u.test(ch)) out += ch === '\n' ? '\n' : ' ';
    else out += skeleton(ch) || ch;
  }
  return out;
}

/** Every place where the text reads as an opening or closing memory delimiter. */
export function delimiterLookAlikes(text: string): string[] {
  const folded = foldForReading(text);
  return [
    ...folded.matchAll(/\[\s*\/?\s*(?:end\s*(?:of\s*)?)?m\s*e\s*m\s*o\s*r[a-z]*\s*\]?/gu),
    // A closer after the word, when no opener came before it (else counted above).
    ...folded.matchAll(/(?<!\[\s*\/?\s*(?:end\s*(?:of\s*)?)?)m\s*e\s*m\s*o\s*r[a-z]*\s*\]/gu),
  ].map((m) => m[0]);
}

/** Lines of the text that start like a new section or speaker: heading, rule or role label. */
export function sectionLikeLines(text: string): string[] {
  return text
    .split('\n')
    .filter((line) =>
      /^\s*(?:#{1,6}\s|[-*_=]{3,}\s*$|(?:system|assistant|user|developer|human|tool)\s*:)/iu.test(
        foldForReading(line),
      ),
    );
}
