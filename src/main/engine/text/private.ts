// `<private>...</private>` spans (DESIGN §6) are replaced by `[private]` before anything is
// stored: transcript rows, everything distilled from them, user edits. The store's write
// functions call stripPrivate themselves, so no caller can forget it; the request forwarded to
// the upstream is never touched. When in doubt, remember less:
// - an unclosed `<private>` hides everything after it;
// - nested spans count depth, so text between an inner and an outer `</private>` stays hidden;
// - a `</private>` without its opening tag is removed (it hides nothing, but says nothing either);
// - tags are matched loosely (any case, attributes, spaces inside the angle brackets).

/** What a private span becomes in stored text. */
export const PRIVATE_MARKER = '[private]';

// One alternation so opening and closing tags come out in text order.
const TAG = /<\s*(\/)?\s*private\b[^>]*>/giu;
const MAYBE_TAG = /<\s*\/?\s*private/iu;

/**
 * `text` with each top-level private span replaced by `[private]` and stray closing tags
 * removed. Idempotent: the marker contains no tag.
 */
export function stripPrivate(text: string): string {
  if (!MAYBE_TAG.test(text)) return text;
  let out = '';
  let depth = 0;
  let last = 0;
  for (const m of text.matchAll(TAG)) {
    const closing = m[1] !== undefined;
    if (depth === 0) out += text.slice(last, m.index);
    last = m.index + m[0].length;
    if (!closing) {
      if (depth === 0) out += PRIVATE_MARKER;
      depth++;
    } else if (depth > 0) {
      depth--;
    } else {
      out = joinAroundStray(out, text, last);
    }
  }
  // An unclosed span hides the rest of the text.
  if (depth === 0) out += text.slice(last);
  return out;
}

/** A stray `</private>` between two spaces leaves one of them, not a double space. */
function joinAroundStray(before: string, text: string, after: number): string {
  return /[ \t]$/u.test(before) && /^[ \t]/u.test(text.slice(after, after + 1))
    ? before.replace(/[ \t]+$/u, '')
    : before;
}

/** True when the text holds a `<private>` opening tag. */
export function hasPrivate(text: string): boolean {
  return /<\s*private\b/iu.test(text);
}

/**
 * True when the text is empty, or nothing but `[private]` markers, spaces and punctuation is
 * left once its private spans are replaced: such a fact, summary or list item says nothing and
 * is not worth storing. Already scrubbed text counts the same. Text without private spans is
 * judged by emptiness alone.
 */
export function isOnlyPrivate(text: string): boolean {
  const scrubbed = stripPrivate(text);
  const rest = scrubbed.replaceAll(PRIVATE_MARKER, '');
  if (rest === scrubbed) return scrubbed.trim() === '';
  return !/[\p{L}\p{N}]/u.test(rest);
}
