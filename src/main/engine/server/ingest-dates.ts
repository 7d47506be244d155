// Dates accepted by POST /memory/ingest: ISO 8601 (`2023-05-08`, `2023-05-08T13:56:00Z`,
// with or without a zone; no zone = UTC) and the English written-out style of chat exports,
// `1:56 pm on 8 May, 2023` (also without the time: `8 May, 2023`). Anything else, and any
// date that does not exist (30 February, 25:00, an offset of +99:99), is refused rather than
// guessed: a wrong date would be stored as a shifted time and silently change what recency
// and retention do with the turn.
import { MONTHS } from '../text/calendar.ts';

/**
 * Years a chat turn can carry. Nothing written to a chat model predates 1900, and a date
 * more than a year ahead of the clock is a typo or a placeholder (9999-12-31), not a
 * timezone or a clock that runs slightly fast; stored, it would rank as the newest memory
 * for years and never reach the retention limit.
 */
export const MIN_INGEST_YEAR = 1900;
const MAX_YEARS_AHEAD = 1;

/** UTC offsets in use run from -12:00 to +14:00; ±14:00 is allowed on both sides. */
const MAX_OFFSET_MINUTES = 14 * 60;

export type IngestDate = { ok: true; at: number } | { ok: false; reason: string };

const refuse = (reason: string): IngestDate => ({ ok: false, reason });

/** Month index of an English name or its abbreviation (`May`, `Sep`, `Sept`, `September`). */
function monthIndex(name: string): number | null {
  const n = name.toLowerCase();
  const i = MONTHS.findIndex((full) => full === n || full.slice(0, 3) === n);
  if (i !== -1) return i;
  return n === 'sept' ? 8 : null;
}

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;
const WRITTEN_OUT =
  /^(?:(\d{1,2})(?::(\d{2}))?\s*([ap])\.?m\.?\s+on\s+)?(\d{1,2})\s+([a-z]+)\.?,?\s+(\d{4})$/i;

/** Why year/month/day (month 0-based) is not a calendar date in the accepted years, or null. */
function calendarProblem(y: number, mo: number, d: number, now: number): string | null {
  const maxYear = new Date(now).getUTCFullYear() + MAX_YEARS_AHEAD;
  if (y < MIN_INGEST_YEAR || y > maxYear) {
    return `the year must be between ${MIN_INGEST_YEAR} and ${maxYear}`;
  }
  if (mo < 0 || mo > 11) return 'the month must be 01 to 12';
  const daysInMonth = new Date(Date.UTC(y, mo + 1, 0)).getUTCDate();
  if (d < 1 || d > daysInMonth) {
    return `${MONTHS[mo]![0]!.toUpperCase()}${MONTHS[mo]!.slice(1)} ${y} has days 1 to ${daysInMonth}`;
  }
  return null;
}

function timeProblem(h: number, mi: number, s: number): string | null {
  if (h > 23) return 'the hour must be 00 to 23';
  if (mi > 59) return 'the minutes must be 00 to 59';
  if (s > 59) return 'the seconds must be 00 to 59';
  return null;
}

/** The offset of a zone designator in minutes east of UTC, or why it is not one. */
function offsetMinutes(zone: string): number | string {
  if (zone.toUpperCase() === 'Z') return 0;
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(zone)!;
  const hours = Number(m[2]);
  const minutes = Number(m[3]);
  if (minutes > 59) return 'the offset minutes must be 00 to 59';
  const total = hours * 60 + minutes;
  if (total > MAX_OFFSET_MINUTES) return 'the UTC offset must be within ±14:00';
  return m[1] === '+' ? total : -total;
}

function parseIso(m: RegExpExecArray, now: number): IngestDate {
  const [y, mo, d, h, mi, sec] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((v) =>
    v === undefined ? 0 : Number(v),
  ) as [number, number, number, number, number, number];
  const problem = calendarProblem(y, mo - 1, d, now) ?? timeProblem(h, mi, sec);
  if (problem) return refuse(problem);
  let offset = 0;
  if (m[8] !== undefined) {
    const zone = offsetMinutes(m[8]);
    if (typeof zone === 'string') return refuse(zone);
    offset = zone;
  }
  const ms = m[7] ? Math.floor(Number('0.' + m[7]) * 1000) : 0;
  return { ok: true, at: Date.UTC(y, mo - 1, d, h, mi, sec, ms) - offset * 60_000 };
}

function parseWrittenOut(m: RegExpExecArray, now: number): IngestDate {
  const month = monthIndex(m[5]!);
  if (month === null) return refuse(`"${m[5]!.slice(0, 20)}" is not an English month name`);
  let hour = 0;
  const minute = m[2] === undefined ? 0 : Number(m[2]);
  if (m[1] !== undefined) {
    hour = Number(m[1]);
    if (hour < 1 || hour > 12) return refuse('the hour must be 1 to 12 with am/pm');
    hour = (hour % 12) + (m[3]!.toLowerCase() === 'p' ? 12 : 0);
  }
  const day = Number(m[4]);
  const year = Number(m[6]);
  const problem = calendarProblem(year, month, day, now) ?? timeProblem(hour, minute, 0);
  if (problem) return refuse(problem);
  return { ok: true, at: Date.UTC(year, month, day, hour, minute) };
}

/**
 * Milliseconds since the epoch, or why the text is not a date we accept. `now` (the
 * engine's clock) bounds the year from above.
 */
export function parseIngestDate(text: string, now: number): IngestDate {
  const s = text.trim();
  const iso = ISO.exec(s);
  if (iso) return parseIso(iso, now);
  const written = WRITTEN_OUT.exec(s);
  if (written) return parseWrittenOut(written, now);
  return refuse('not a date in a format Cairn reads');
}
