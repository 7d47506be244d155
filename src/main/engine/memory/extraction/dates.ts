// Dates mentioned in a statement, resolved against the message's date ("in March" said on
// 2 May 2024 is March 2024; "next Tuesday" is the Tuesday after). wink-nlp finds the span
// (DATE / DURATION entities); this reads its words. Anything it cannot read is ignored and
// the fact is dated by the message instead.
import { MONTHS, WEEKDAYS } from '../../text/calendar.ts';
import type { Clause } from './clause.ts';

export interface ResolvedDate {
  /** ms since the epoch (UTC midnight of the day, month or year start). */
  at: number;
  precision: 'day' | 'month' | 'year';
}

const DAY = 86_400_000;
const NUMBER_WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  couple: 2,
  few: 3,
};

function monthIndex(word: string): number {
  const w = word.toLowerCase().replace(/\.$/, '');
  if (w.length < 3) return -1;
  return MONTHS.findIndex((m) => m.startsWith(w) && (w.length >= 3 || m === w));
}

const utcDay = (y: number, m: number, d: number) => Date.UTC(y, m, d);
function startOfDay(ms: number): number {
  const d = new Date(ms);
  return utcDay(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
}

function count(word: string): number | null {
  if (/^\d+$/.test(word)) return Number(word);
  return NUMBER_WORDS[word] ?? null;
}

function shift(at: number, n: number, unit: string): ResolvedDate | null {
  const d = new Date(startOfDay(at));
  const u = unit.replace(/s$/, '');
  if (u === 'day') return { at: d.getTime() + n * DAY, precision: 'day' };
  if (u === 'week') return { at: d.getTime() + n * 7 * DAY, precision: 'day' };
  if (u === 'month')
    return { at: utcDay(d.getUTCFullYear(), d.getUTCMonth() + n, 1), precision: 'month' };
  if (u === 'year') return { at: utcDay(d.getUTCFullYear() + n, 0, 1), precision: 'year' };
  if (u === 'weekend') {
    // The Saturday of the weekend before, after, or (this) around `at`.
    const today = d.getUTCDay();
    if (n < 0) return { at: weekday(at, 6, 'past'), precision: 'day' };
    if (n === 0 && (today === 6 || today === 0))
      return { at: d.getTime() - (today === 0 ? DAY : 0), precision: 'day' };
    return { at: weekday(at, 6, 'future'), precision: 'day' };
  }
  return null;
}

/** The weekday `target` nearest `at` in the given direction (this week's when "this"). */
function weekday(at: number, target: number, dir: 'past' | 'future' | 'this'): number {
  const day = startOfDay(at);
  const today = new Date(day).getUTCDay();
  if (dir === 'this') return day + (target - today) * DAY;
  if (dir === 'future') return day + ((target - today + 7) % 7 || 7) * DAY;
  return day - ((today - target + 7) % 7 || 7) * DAY;
}

/**
 * Reads one date expression ("last Friday", "March 2024", "the 14th of June", "two weeks
 * ago", "in 2019", "next month"). `future` picks the next occurrence of an underspecified
 * month or weekday, otherwise the most recent one.
 */
export function resolveDate(expression: string, at: number, future: boolean): ResolvedDate | null {
  const words = expression
    .toLowerCase()
    .replace(/[,]/g, ' ')
    .split(/\s+/)
    .filter((w) => w && !['the', 'of', 'on', 'in', 'since', 'from', 'at', 'by'].includes(w));
  if (words.length === 0) return null;
  const text = words.join(' ');
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (iso) return { at: utcDay(+iso[1]!, +iso[2]! - 1, +iso[3]!), precision: 'day' };
  if (text === 'today' || text === 'tonight' || /^this (?:morning|afternoon|evening)$/.test(text))
    return { at: startOfDay(at), precision: 'day' };
  if (text === 'yesterday') return { at: startOfDay(at) - DAY, precision: 'day' };
  if (text === 'tomorrow') return { at: startOfDay(at) + DAY, precision: 'day' };
  const ago = /^(\S+) (days?|weeks?|months?|years?) ago$/.exec(text);
  if (ago && count(ago[1]!) !== null) return shift(at, -count(ago[1]!)!, ago[2]!);
  const ahead = /^(\S+) (days?|weeks?|months?|years?)$/.exec(text);
  if (ahead && future && count(ahead[1]!) !== null) return shift(at, count(ahead[1]!)!, ahead[2]!);
  const rel = /^(last|next|this|coming|past) (week|weekend|month|year)$/.exec(text);
  if (rel) {
    const n = rel[1] === 'last' || rel[1] === 'past' ? -1 : rel[1] === 'this' ? 0 : 1;
    return shift(at, n, rel[2]!);
  }
  const season = /^(?:(last|next|this|coming|past) )?(spring|summer|fall|autumn|winter)$/.exec(
    text,
  );
  if (season) return seasonDate(at, season[1] ?? null, season[2]!, future);
  const wd = /^(?:(last|next|this|coming) )?(\w+?)s?$/.exec(text);
  if (wd && WEEKDAYS.includes(wd[2]!)) {
    const target = WEEKDAYS.indexOf(wd[2]!);
    const dir =
      wd[1] === 'last' ? 'past' : wd[1] === 'this' ? 'this' : wd[1] || future ? 'future' : 'past';
    return { at: weekday(at, target, dir), precision: 'day' };
  }
  if (/^(?:19|20)\d{2}$/.test(text)) return { at: utcDay(+text, 0, 1), precision: 'year' };
  return monthDate(words, at, future);
}

const SEASON_START: Record<string, number> = {
  spring: 2,
  summer: 5,
  fall: 8,
  autumn: 8,
  winter: 11,
};

/** "last summer" → the most recent summer that began; "next winter" → the coming one. */
function seasonDate(
  at: number,
  which: string | null,
  season: string,
  future: boolean,
): ResolvedDate {
  const month = SEASON_START[season]!;
  const year = new Date(at).getUTCFullYear();
  const begun = utcDay(year, month, 1) <= at;
  const ahead = which === 'next' || which === 'coming' || (which === null && future);
  let y: number;
  if (which === 'this') y = year;
  else if (ahead) y = begun ? year + 1 : year;
  else y = begun ? year : year - 1;
  return { at: utcDay(y, month, 1), precision: 'month' };
}

/** "march", "march 2024", "june 14", "14th june", "14 june 2024". */
function monthDate(words: string[], at: number, future: boolean): ResolvedDate | null {
  let month = -1;
  let day: number | null = null;
  let year: number | null = null;
  for (const w of words) {
    const m = monthIndex(w);
    if (m >= 0 && month < 0) {
      month = m;
      continue;
    }
    const n = /^(\d{1,4})(?:st|nd|rd|th)?$/.exec(w);
    if (!n) {
      if (['early', 'mid', 'late', 'end', 'beginning', 'last', 'next', 'this'].includes(w))
        continue;
      return null;
    }
    const v = Number(n[1]);
    if (v >= 1900 && v < 2200) year = v;
    else if (v >= 1 && v <= 31) day = v;
    else return null;
  }
  if (month < 0) return null;
  const now = new Date(at);
  let y = year ?? now.getUTCFullYear();
  if (year === null) {
    const candidate = utcDay(y, month, day ?? 1);
    const thisMonth = utcDay(
      now.getUTCFullYear(),
      now.getUTCMonth(),
      day === null ? 1 : now.getUTCDate(),
    );
    if (future && candidate < thisMonth) y++;
    if (!future && candidate > thisMonth) y--;
  }
  return { at: utcDay(y, month, day ?? 1), precision: day === null ? 'month' : 'day' };
}

/** When the day, month or year a resolved date names ends (ms, exclusive). */
export function endOf(d: ResolvedDate): number {
  if (d.precision === 'day') return d.at + DAY;
  const date = new Date(d.at);
  const y = date.getUTCFullYear();
  return d.precision === 'month' ? Date.UTC(y, date.getUTCMonth() + 1, 1) : Date.UTC(y + 1, 0, 1);
}

/** "March 2024", "14 June 2024", "2019": how a resolved date is written into a fact. */
export function formatResolvedDate(d: ResolvedDate): string {
  const date = new Date(d.at);
  const month = MONTHS[date.getUTCMonth()]!;
  const monthName = month.charAt(0).toUpperCase() + month.slice(1);
  if (d.precision === 'year') return String(date.getUTCFullYear());
  if (d.precision === 'month') return `${monthName} ${date.getUTCFullYear()}`;
  return `${date.getUTCDate()} ${monthName} ${date.getUTCFullYear()}`;
}

/**
 * Whether a date named without its year (the date entity at token `i`) lies ahead of the
 * message: in a clause in the simple present ("We move to Porto in March", "I start at Stripe
 * in January", "I have a conference in May": what is scheduled), or after "starting" /
 * "beginning" ("accepted an offer, starting in March"). A past or a perfect ("I moved in
 * March", "I've lived here since March") and "since"/"as of" look back.
 */
function ahead(c: Clause, i: number): boolean {
  const before = c.toks[i - 1]?.norm;
  const lead =
    before === 'in' || before === 'on' || before === 'from' ? c.toks[i - 2]?.norm : before;
  if (lead === 'starting' || lead === 'beginning') return true;
  if (before === 'since' || (before === 'of' && c.toks[i - 2]?.norm === 'as')) return false;
  return !c.past && !c.perfect && !c.usedTo && !c.ended;
}

/** The date a clause mentions (its first readable DATE or DURATION expression), or null. */
export function clauseDate(c: Clause, at: number): ResolvedDate | null {
  const seen = new Set<number>();
  for (let i = 0; i < c.toks.length; i++) {
    const t = c.toks[i]!;
    if (t.entIndex < 0 || seen.has(t.entIndex)) continue;
    seen.add(t.entIndex);
    const e = c.sentence.entities[t.entIndex]!;
    if (e.type !== 'DATE' && e.type !== 'DURATION') continue;
    // "every Saturday", "on Sundays": a routine, not a date.
    if (c.toks[i - 1]?.norm === 'every' || c.toks[i - 1]?.norm === 'each' || /days$/i.test(e.value))
      continue;
    let expression = e.value;
    const after = c.toks[i + (e.end - e.start) + 1];
    const future = c.future || (c.progressive && !c.past) || ahead(c, i);
    // A duration is a date only as "two weeks ago", "since 2019" or (ahead) "in two weeks";
    // "for three months" says how long, not when.
    if (e.type === 'DURATION') {
      const since = /^since\b/i.test(expression);
      const ahead = future && c.toks[i - 1]?.norm === 'in';
      if (after?.norm !== 'ago' && !since && !ahead) continue;
    }
    // "the 14th of June": wink gives the ordinal and the month as two entities.
    const before = c.toks[i - 2];
    if (c.toks[i - 1]?.norm === 'of' && before?.ent === 'ORDINAL') {
      expression = `${before.text} ${expression}`;
    }
    if (after?.norm === 'ago') expression += ' ago';
    const r = resolveDate(expression, at, future);
    if (r) return r;
  }
  return null;
}

const MONTH_NAME = String.raw`(?:${MONTHS.join('|')}|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\.?`;
const ORDINAL_DAY = String.raw`\d{1,2}(?:st|nd|rd|th)?`;
const DAY_MONTH = String.raw`(?:the\s+)?${ORDINAL_DAY}\s+(?:of\s+)?${MONTH_NAME}(?:,?\s+\d{4})?`;
const MONTH_DAY = String.raw`${MONTH_NAME}\s+${ORDINAL_DAY}(?:,?\s+\d{4})?`;
/** A day of the year as said: "14 August", "the 21st of March", "June 3rd, 1990". */
export const DAY_OF_YEAR = new RegExp(String.raw`\b(?:${DAY_MONTH}|${MONTH_DAY})\b`, 'iu');
/**
 * Dates a question names, as resolveDate reads them: "on 4 September, 2021", "February 2, 2022",
 * "in July 2021", "on the 3rd of June", "2021-09-04", "yesterday", "last week", "on Monday",
 * "two weeks ago". A month alone needs "in"/"during" before it ("may" is also a verb).
 */
const ASKED_DATE = new RegExp(
  [
    String.raw`\d{4}-\d{2}-\d{2}`,
    DAY_MONTH,
    MONTH_DAY,
    String.raw`${MONTH_NAME},?\s+\d{4}`,
    String.raw`(?<=\b(?:in|during)\s+)${MONTH_NAME}`,
    String.raw`yesterday`,
    String.raw`(?:earlier\s+)?today`,
    String.raw`this\s+(?:morning|afternoon|evening)`,
    String.raw`last\s+night`,
    String.raw`(?:last|this|past)\s+(?:week|weekend|month)`,
    String.raw`(?<=\bon\s+)(?:last\s+)?(?:${WEEKDAYS.join('|')})`,
    String.raw`(?:a|one|two|three|four|five|six|\d+)\s+(?:days?|weeks?)\s+ago`,
  ]
    .map((p) => String.raw`\b${p}\b`)
    .join('|'),
  'giu',
);

/** A span of time, ms: [from, to), of which [from + slack, to - slack) is the span named. */
export interface TimeWindow {
  from: number;
  to: number;
  slack: number;
}

/**
 * Slack on each side of a named day, month or year: the rows' times are instants, the day the
 * user means is one of their own time zone (UTC-12 to UTC+14).
 */
const ZONE_SLACK = 14 * 3_600_000;

/**
 * The spans of time a question names ("What did Noor share on 4 September, 2021?", "what did I
 * say yesterday about the lease?"), resolved against `now` to the most recent such date; []
 * when it names none.
 */
export function datesAskedAbout(text: string, now: number): TimeWindow[] {
  const out: TimeWindow[] = [];
  for (const m of text.matchAll(ASKED_DATE)) {
    // "last night" is the evening of yesterday.
    const said = /^last\s+night$/iu.test(m[0]) ? 'yesterday' : m[0].replace(/^earlier\s+/iu, '');
    const d = resolveDate(
      said.replace(/\.(?=\s|$)/gu, '').replace(/(\d)(?:st|nd|rd|th)\b/giu, '$1'),
      now,
      false,
    );
    if (d === null) continue;
    // "last week", "two weeks ago": the week around the day resolveDate gives.
    const week = /\bweeks?\b/iu.test(m[0]) ? 3 * DAY : 0;
    out.push({
      from: d.at - week - ZONE_SLACK,
      to: endOf(d) + week + ZONE_SLACK,
      slack: ZONE_SLACK,
    });
  }
  return out;
}
