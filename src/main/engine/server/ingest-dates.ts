// Dates accepted by POST /memory/ingest: ISO 8601 (`2023-05-08`, `2023-05-08T13:56:00Z`,
// with or without a zone; no zone = UTC) and the LoCoMo style `1:56 pm on 8 May, 2023`
// (also without the time: `8 May, 2023`). Anything else is rejected rather than guessed.

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** Month index of an English name or its abbreviation (`May`, `Sep`, `Sept`, `September`). */
function monthIndex(name: string): number | null {
  const n = name.toLowerCase();
  const i = MONTHS.findIndex((full) => full === n || full.slice(0, 3) === n);
  if (i !== -1) return i;
  return n === 'sept' ? 8 : null;
}

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;
const LOCOMO =
  /^(?:(\d{1,2})(?::(\d{2}))?\s*([ap])\.?m\.?\s+on\s+)?(\d{1,2})\s+([a-z]+)\.?,?\s+(\d{4})$/i;

function valid(y: number, mo: number, d: number, h: number, mi: number, s: number): boolean {
  const t = new Date(Date.UTC(y, mo, d, h, mi, s));
  return (
    t.getUTCFullYear() === y &&
    t.getUTCMonth() === mo &&
    t.getUTCDate() === d &&
    h < 24 &&
    mi < 60 &&
    s < 60
  );
}

/** Milliseconds since the epoch, or null when the text is not a date we accept. */
export function parseIngestDate(text: string): number | null {
  const s = text.trim();
  let m = ISO.exec(s);
  if (m) {
    const [y, mo, d, h, mi, sec] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((v) =>
      v === undefined ? 0 : Number(v),
    ) as [number, number, number, number, number, number];
    if (!valid(y, mo - 1, d, h, mi, sec)) return null;
    const ms = m[7] ? Math.round(Number('0.' + m[7]) * 1000) : 0;
    let t = Date.UTC(y, mo - 1, d, h, mi, sec, ms);
    const zone = m[8];
    if (zone && zone.toUpperCase() !== 'Z') {
      const zm = /^([+-])(\d{2}):?(\d{2})$/.exec(zone)!;
      const offset = (Number(zm[2]) * 60 + Number(zm[3])) * 60_000;
      t -= zm[1] === '+' ? offset : -offset;
    }
    return t;
  }
  m = LOCOMO.exec(s);
  if (m) {
    const month = monthIndex(m[5]!);
    if (month === null) return null;
    let hour = m[1] === undefined ? 0 : Number(m[1]);
    const minute = m[2] === undefined ? 0 : Number(m[2]);
    if (m[1] !== undefined) {
      if (hour < 1 || hour > 12) return null;
      const pm = m[3]!.toLowerCase() === 'p';
      hour = (hour % 12) + (pm ? 12 : 0);
    }
    const day = Number(m[4]);
    const year = Number(m[6]);
    if (!valid(year, month, day, hour, minute, 0)) return null;
    return Date.UTC(year, month, day, hour, minute);
  }
  return null;
}
