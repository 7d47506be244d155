// Query text processing shared by search and the gate: tokenising like FTS5's unicode61,
// stop words, FTS5 MATCH expressions built from sanitised terms (never raw query syntax),
// and word-set similarity for MMR.

/**
 * Function words and question words: they carry no topic, and in a memory of chat turns they
 * match almost every row. Dropped from queries (not from the index).
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above after again against ago all also am an and any are aren as at be because been
  before being below between both but by can cannot could couldn d did didn do does doesn doing
  don down during each else even ever few for from further get gets got had hadn has hasn have
  haven having he her here hers herself him himself his how i if in into is isn it its itself
  just ll m ma me might mine more most must mustn my myself no nor not now o of off on once only
  or other our ours ourselves out over own re really s same shall she should shouldn so some such
  t than that the their theirs them themselves then there these they this those through to too
  under until up upon us ve very was wasn we were weren what whats when where which while who
  whom whose why will with won would wouldn y yet you your yours yourself yourselves
  tell told say said know remember recall remind please thing things something anything kind
  lot lots like`
    .split(/\s+/)
    .filter(Boolean),
);

const WORD = /[\p{L}\p{N}]+/gu;

/** The writer or their household in a message: "I", "me", "my", "we", "us", "our"... */
export const FIRST_PERSON = /\b(?:i|me|my|mine|myself|we|us|our|ours)\b/iu;
const MAX_TERMS = 24;

/** Lower-cased word tokens, split like FTS5's unicode61 tokenizer (letters and digits). */
export function words(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/**
 * The searchable terms of a query: words without stop words, possessive "'s" removed,
 * de-duplicated, at most 24. A query made only of stop words keeps its words so that it
 * still finds something ("who am I" → who, am, i).
 */
export function queryTerms(query: string): string[] {
  const cleaned = query.replace(/[’']s\b/giu, '');
  const all = words(cleaned);
  const kept = all.filter((w) => !STOP_WORDS.has(w) && !(w.length === 1 && !/\d/u.test(w)));
  const chosen = kept.length > 0 ? kept : all;
  // A chat form is searched with its word ("bday" finds "birthday" too, and "bday" itself).
  const spelled = chosen.flatMap((w) => {
    const full = CHAT_FORMS.get(w);
    return full === undefined ? [w] : [w, ...words(full)];
  });
  return [...new Set(spelled)].slice(0, MAX_TERMS);
}

/**
 * Chat forms of everyday words that word vectors and stemmers do not know ("bday", "tmrw",
 * "appt"), with the words they stand for. Only forms that stand for one thing.
 */
export const CHAT_FORMS: ReadonlyMap<string, string> = new Map([
  ['bday', 'birthday'],
  ['bdays', 'birthdays'],
  ['tmrw', 'tomorrow'],
  ['tmrrw', 'tomorrow'],
  ['tmr', 'tomorrow'],
  ['tmrow', 'tomorrow'],
  ['2moro', 'tomorrow'],
  ['2morrow', 'tomorrow'],
  ['appt', 'appointment'],
  ['appts', 'appointments'],
  ['convo', 'conversation'],
  ['convos', 'conversations'],
  ['bff', 'best friend'],
  ['anniv', 'anniversary'],
  ['hbd', 'happy birthday'],
  ['wknd', 'weekend'],
]);

/**
 * An FTS5 MATCH expression that can never be a syntax error: every term is a double-quoted
 * string (with `"` doubled, per https://www.sqlite.org/fts5.html#fts5_strings), OR-joined, so
 * operators such as AND, NEAR(, `*`, `^` or `:` in the user's text are plain words. The
 * expression is always passed as a bound parameter. `prefix` adds `*` to terms of 3+
 * characters (substring-ish search for the UI). null when there is nothing to search for.
 */
export function buildMatchExpression(
  terms: readonly string[],
  options: { prefix?: boolean } = {},
): string | null {
  const parts: string[] = [];
  for (const t of terms) {
    // NUL ends a C string inside FTS5's parser ("unterminated string"): drop it.
    const term = t.replaceAll('\u0000', '');
    if (term.length === 0) continue;
    const quoted = `"${term.replaceAll('"', '""')}"`;
    parts.push(options.prefix === true && term.length >= 3 ? `${quoted}*` : quoted);
  }
  return parts.length === 0 ? null : parts.join(' OR ');
}

/**
 * The MATCH expression for a large memory: rare terms match alone, common ones only in
 * pairs (`"a" AND "b"`), so that FTS5 scores hundreds of rows instead of tens of thousands
 * while common words still count where they co-occur. Quoting as in buildMatchExpression.
 */
export function buildPairedMatchExpression(
  singles: readonly string[],
  paired: readonly string[],
): string | null {
  const q = (t: string) => buildMatchExpression([t]);
  const parts: string[] = [];
  for (const t of singles) {
    const e = q(t);
    if (e !== null) parts.push(e);
  }
  const quoted = paired.map(q).filter((e): e is string => e !== null);
  for (let i = 0; i < quoted.length; i++) {
    for (let j = i + 1; j < quoted.length; j++) parts.push(`(${quoted[i]} AND ${quoted[j]})`);
  }
  if (parts.length === 0 && quoted.length === 1) parts.push(quoted[0] as string);
  return parts.length === 0 ? null : parts.join(' OR ');
}

/** Escapes `%`, `_` and the escape character itself for `LIKE ? ESCAPE '\'`. */
export function escapeLike(term: string): string {
  return term.replace(/[\\%_]/gu, (c) => `\\${c}`);
}

/** Content words of a text, for similarity between results. */
export function wordSet(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of words(text)) if (!STOP_WORDS.has(w)) out.add(w);
  return out;
}

/**
 * Whether a text has at least `n` different content words (wordSet(text).size >= n), reading
 * only as far as it takes: a long turn is decided by its first few words.
 */
export function hasContentWords(text: string, n: number): boolean {
  if (n <= 0) return true;
  const seen = new Set<string>();
  for (const m of text.toLowerCase().matchAll(WORD)) {
    const w = m[0];
    if (STOP_WORDS.has(w)) continue;
    seen.add(w);
    if (seen.size >= n) return true;
  }
  return false;
}

/**
 * Every word of a text (stop words kept), with a possessive "'s" removed: for comparing two
 * statements of a fact, where "not" or "likes" carry meaning.
 */
export function statementWords(text: string): Set<string> {
  return new Set(
    (text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? []).map((w) =>
      w.replace(/['’]s$/u, ''),
    ),
  );
}

/**
 * Word-set Jaccard similarity, the one used across the memory layer (MMR, near-duplicate
 * lines, fact de-duplication, episode merging). Two empty sets have nothing to compare and
 * count as 0: not alike, so nothing is merged or dropped on no evidence.
 */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let inter = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const w of small) if (large.has(w)) inter++;
  return inter / (a.size + b.size - inter);
}
