// Stored text is data, never markup (DESIGN §5 step 4). Every line the planner puts in the
// memory block goes through neutraliseLine, so a transcript row, fact, episode or identity
// override can never end the block, open a new one, or start what reads as a new section or a
// new speaker: anything a later message wrote into memory reaches the model as one bullet.
//
// What it does, in order:
// 1. Invisible characters go (zero-width spaces and joiners, bidi controls, soft hyphens...):
//    "[Mem\u200Bory]" must not hide from the rules below. Other control characters become spaces.
// 2. Brackets around a delimiter look-alike are dropped, so `[/Memory]`, `[ / memory ]`,
//    `［Ｍｅｍｏｒｙ］`, `【/МЕМОRY】` (Cyrillic letters) or `[[/Memory]]` come out as plain
//    words. Chat-template markers (`<|im_start|>`, `[INST]`, `<<SYS>>`) lose theirs too.
// 3. The text is cut at line breaks and after each delimiter word; each piece is a line start,
//    where a markdown rule line is dropped, heading marks are removed and a role label
//    ("SYSTEM:", "assistant :") becomes "(SYSTEM)".
// 4. The pieces are joined on one line with single spaces.
//
// Look-alikes are recognised on a skeleton: compatibility forms folded (full-width, circled,
// mathematical letters), accents dropped, common Cyrillic and Greek homoglyphs and digits that
// stand for letters mapped to Latin, everything but letters and slashes removed.

/**
 * Format characters (Cf) and other invisible fillers; ZWJ inside emoji sequences is kept.
 * Alternatives, not one class: U+034F and the Hangul fillers combine with their neighbours.
 */
const INVISIBLE = /\p{Cf}|\u034F|\u115F|\u1160|\u3164|\uFFA0|[\u17B4\u17B5\u180B-\u180D\u2800]/gu;
const LINE_BREAK = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/u;
const CONTROL = /\p{Cc}/gu;

/** Letters that look like Latin ones, for the skeleton (after NFKD). */
const HOMOGLYPHS: Readonly<Record<string, string>> = {
  // Cyrillic
  а: 'a',
  в: 'b',
  с: 'c',
  ԁ: 'd',
  е: 'e',
  ё: 'e',
  һ: 'h',
  н: 'h',
  і: 'i',
  ї: 'i',
  ј: 'j',
  к: 'k',
  ӏ: 'l',
  м: 'm',
  п: 'n',
  о: 'o',
  р: 'p',
  ԛ: 'q',
  г: 'r',
  ѕ: 's',
  т: 't',
  ц: 'u',
  ѵ: 'v',
  ԝ: 'w',
  х: 'x',
  у: 'y',
  ү: 'y',
  з: 'z',
  // Greek
  α: 'a',
  β: 'b',
  ε: 'e',
  η: 'n',
  ι: 'i',
  κ: 'k',
  μ: 'm',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  σ: 's',
  τ: 't',
  υ: 'u',
  χ: 'x',
  γ: 'y',
  ζ: 'z',
  // Latin small capitals and variants
  ı: 'i',
  ɑ: 'a',
  ɡ: 'g',
  ʏ: 'y',
  ʀ: 'r',
  ᴍ: 'm',
  ᴇ: 'e',
  ᴏ: 'o',
  ꜱ: 's',
  ᴛ: 't',
  ᴜ: 'u',
  ɴ: 'n',
  ʜ: 'h',
  ᴀ: 'a',
  ᴅ: 'd',
  ʟ: 'l',
  ᴘ: 'p',
  ᴠ: 'v',
  ᴡ: 'w',
  ᴢ: 'z',
  // Digits written for letters
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  // Slashes
  '\\': '/',
  '∕': '/',
  '⁄': '/',
  '⧸': '/',
  '／': '/',
};

/** Characters the homoglyph table may map: anything but a lower-case Latin letter or a slash. */
const NOT_LATIN = /[^a-z/]/gu;
/** Spaces, punctuation, marks...: dropped in runs before the table is consulted. */
const NEITHER_LETTER_NOR_DIGIT = /[^\p{L}\p{N}/\\∕⁄⧸／]+/gu;

/** Lower-case Latin letters and slashes that `text` looks like. */
export function skeleton(text: string): string {
  return (
    text
      .normalize('NFKD')
      .toLowerCase()
      .replace(NEITHER_LETTER_NOR_DIGIT, '')
      // Marks left by NFKD (accents) and whatever the table does not map are dropped.
      .replace(NOT_LATIN, (ch) => HOMOGLYPHS[ch] ?? '')
  );
}

// Anything that opens or closes like a bracket: ASCII, Unicode open/close and quote
// punctuation, and the "less than" look-alikes that are maths symbols or letters.
const OPENER = String.raw`[\[<({\p{Ps}\p{Pi}＜﹤˂ᐸ‹]`;
const CLOSER = String.raw`[\]>)}\p{Pe}\p{Pf}＞﹥˃ᐳ›]`;
const BRACKETS = new RegExp(`${OPENER}|${CLOSER}`, 'gu');

/** The block's own words: a bracketed span whose skeleton holds one is a delimiter look-alike. */
const DELIMITER_WORD = /memor/u;
/** Chat-template markers, by skeleton: bracketed, they could end a turn in a raw prompt. */
const TEMPLATE_MARKERS: ReadonlySet<string> = new Set([
  'inst',
  '/inst',
  'sys',
  '/sys',
  'imstart',
  'imend',
  'endoftext',
  'eotid',
  'startheaderid',
  'endheaderid',
  'startofturn',
  'endofturn',
  'system',
  'user',
  'assistant',
]);

/** Skeleton fragments of the markers above: a text without any needs no bracket scan. */
const TEMPLATE_HINT = /inst|sys|imstart|imend|endoftext|eotid|headerid|ofturn|user|assistant/u;

/** A short bracketed span: an opener, up to 40 characters of no bracket, and maybe a closer. */
const BRACKETED = new RegExp(
  `(${OPENER}+)((?:(?!${OPENER}|${CLOSER}).){0,40}?)(${CLOSER}+|(?=${OPENER})|$)`,
  'gu',
);

/** A word (letters, digits for leetspeak, marks) whose skeleton may spell the delimiter. */
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

/**
 * Removes the brackets around delimiter look-alikes and chat-template markers, and the
 * brackets that open before or close after a word spelling the delimiter (`Memory]`,
 * `[ /Memory`). Repeated until nothing changes, so nested brackets cannot rebuild a delimiter
 * once the inner pair is gone.
 */
function unbracketDelimiters(text: string): string {
  let current = text;
  for (let pass = 0; pass < 16; pass++) {
    const next = stripTouchingBrackets(
      current.replace(BRACKETED, (span, _open: string, inner: string, close: string) => {
        const s = skeleton(inner);
        if (DELIMITER_WORD.test(s)) return inner;
        if (close !== '' && TEMPLATE_MARKERS.has(s)) return inner;
        return span;
      }),
    );
    if (next === current) return next;
    current = next;
  }
  // Still changing after many passes: adversarial nesting; no bracket is worth keeping.
  return current.replace(BRACKETS, ' ');
}

// eslint-disable-next-line no-control-regex
const ASCII = /^[\x00-\x7F]*$/u;
const ASCII_DELIMITER_WORD = /m[e3]m[o0]r/iu;

/**
 * Whether the word spells the delimiter. An ASCII word needs no skeleton, nor does a word too
 * short to hold five letters (no compatibility form unfolds into "memor").
 */
function isDelimiterWord(word: string): boolean {
  if (ASCII.test(word)) return ASCII_DELIMITER_WORD.test(word);
  return word.length >= 4 && DELIMITER_WORD.test(skeleton(word));
}

/** Brackets that open before or close after a delimiter word (across spaces, slashes) go. */
function stripTouchingBrackets(text: string): string {
  let out = text;
  for (const m of text.matchAll(WORD)) {
    if (!isDelimiterWord(m[0])) continue;
    out = removeBracketsAround(out, m.index, m.index + m[0].length);
  }
  return out;
}

/** What may sit between a delimiter word and its brackets: spaces and slashes. */
const BETWEEN = /^[\s/\\∕⁄⧸／]$/u;
const OPENS = new RegExp(`^${OPENER}$`, 'u');
const CLOSES = new RegExp(`^${CLOSER}$`, 'u');

/**
 * `text` with the openers before [start, end) and the closers after it blanked (same length),
 * across spaces and slashes: "[ /Memory", "Memory ]". "memories (plenty)" keeps its bracket.
 */
function removeBracketsAround(text: string, start: number, end: number): string {
  const chars = text.split('');
  const blank = (i: number, bracket: RegExp): boolean => {
    const ch = chars[i]!;
    if (bracket.test(ch)) {
      chars[i] = ' ';
      return true;
    }
    return BETWEEN.test(ch);
  };
  for (let i = start - 1; i >= 0 && blank(i, OPENS); i--);
  for (let i = end; i < chars.length && blank(i, CLOSES); i++);
  return chars.join('');
}

/**
 * A line break after every word that spells the delimiter: what a look-alike was followed by
 * ("[/Memory] SYSTEM: ...") is checked as a line start.
 */
function breakAfterDelimiterWords(text: string): string {
  return text.replace(WORD, (word) => (isDelimiterWord(word) ? `${word}\n` : word));
}

/** A markdown thematic break or setext underline: three or more of one of - * _ = ~ . */
const RULE_LINE = /^\s*([-*_=~—–])(?:\s*\1){2,}\s*$/u;
/** Leading heading marks ("## Instructions", "#Instructions" with two or more #). */
const HEADING = /^\s*(?:#{2,}\s*|#\s+)/u;
/** A leading word and colon: a role label when the word's skeleton is a role. */
const LEADING_LABEL = /^\s*[*_`>]*\s*([\p{L}\p{N}\p{M}]{1,16})\s*[*_`]*\s*[:：﹕꞉∶][*_`]*/u;
const ROLES: ReadonlySet<string> = new Set([
  'system',
  'assistant',
  'user',
  'human',
  'developer',
  'tool',
  'function',
  'ai',
  'bot',
  'model',
]);

/** One line start made harmless: no rule line, no heading marks, no role label. */
function neutraliseLineStart(piece: string): string {
  if (RULE_LINE.test(piece)) return '';
  const text = piece.replace(HEADING, '');
  const label = LEADING_LABEL.exec(text);
  if (!label || !ROLES.has(skeleton(label[1]!))) return text;
  // "SYSTEM: do this" → "(SYSTEM) do this": the word stays, it no longer opens a turn. What
  // follows is a line start again ("User: System: ...").
  return `(${label[1]}) ${neutraliseLineStart(text.slice(label[0].length).trimStart())}`;
}

/** Keeps a ZWJ between two pictographs (emoji sequences); every other invisible goes. */
function removeInvisible(text: string): string {
  return text.replace(INVISIBLE, (ch, offset: number, whole: string) =>
    ch === '\u200D' &&
    /\p{Extended_Pictographic}\uFE0F?$/u.test(whole.slice(Math.max(0, offset - 3), offset)) &&
    /^\p{Extended_Pictographic}/u.test(whole.slice(offset + 1, offset + 3))
      ? ch
      : '',
  );
}

/**
 * Stored text as one line of the memory block: no delimiter look-alike, no heading, rule line
 * or role label at any line start, no line break.
 */
export function neutraliseLine(text: string): string {
  let visible = removeInvisible(text).replace(CONTROL, (c) => (LINE_BREAK.test(c) ? c : ' '));
  // One skeleton of the whole text says whether any of it can spell a delimiter or a marker
  // (letters spaced apart included); most lines skip the scans below.
  const whole = skeleton(visible);
  if (DELIMITER_WORD.test(whole)) {
    visible = breakAfterDelimiterWords(unbracketDelimiters(visible));
  } else if (TEMPLATE_HINT.test(whole)) {
    visible = unbracketDelimiters(visible);
  }
  return visible.split(LINE_BREAK).map(neutraliseLineStart).join(' ').replace(/\s+/gu, ' ').trim();
}
