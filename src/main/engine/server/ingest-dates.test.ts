import { describe, expect, it } from 'vitest';
import { parseIngestDate } from './ingest-dates.ts';

/** The clock of these tests: 15 March 2026, so the latest year accepted is 2027. */
const NOW = Date.UTC(2026, 2, 15, 12);

const at = (text: string) => {
  const r = parseIngestDate(text, NOW);
  return r.ok ? r.at : r.reason;
};

describe('parseIngestDate', () => {
  it.each([
    ['2023-05-08', Date.UTC(2023, 4, 8)],
    ['2023-05-08T13:56:00Z', Date.UTC(2023, 4, 8, 13, 56)],
    ['2023-05-08t13:56:00z', Date.UTC(2023, 4, 8, 13, 56)],
    ['2023-05-08T13:56:07.250Z', Date.UTC(2023, 4, 8, 13, 56, 7, 250)],
    ['2023-05-08T13:56:07.9999Z', Date.UTC(2023, 4, 8, 13, 56, 7, 999)],
    ['2023-05-08 13:56', Date.UTC(2023, 4, 8, 13, 56)],
    ['2023-05-08T15:56:00+02:00', Date.UTC(2023, 4, 8, 13, 56)],
    ['2023-05-08T08:26:00-0530', Date.UTC(2023, 4, 8, 13, 56)],
    ['2023-05-09T03:56:00+14:00', Date.UTC(2023, 4, 8, 13, 56)],
    ['2023-05-08T01:56:00-12:00', Date.UTC(2023, 4, 8, 13, 56)],
    ['2024-02-29T23:59:59Z', Date.UTC(2024, 1, 29, 23, 59, 59)],
    ['1900-01-01', Date.UTC(1900, 0, 1)],
    ['2027-12-31T23:59:59Z', Date.UTC(2027, 11, 31, 23, 59, 59)],
    ['1:56 pm on 8 May, 2023', Date.UTC(2023, 4, 8, 13, 56)],
    ['12:05 am on 1 January, 2024', Date.UTC(2024, 0, 1, 0, 5)],
    ['12:30 pm on 29 Feb, 2024', Date.UTC(2024, 1, 29, 12, 30)],
    ['10:04 AM on 3 Sept, 2022', Date.UTC(2022, 8, 3, 10, 4)],
    ['8 May, 2023', Date.UTC(2023, 4, 8)],
    ['  7 pm on 8 May 2023 ', Date.UTC(2023, 4, 8, 19, 0)],
  ])('%s', (text, expected) => {
    expect(at(text)).toBe(expected);
  });

  it.each([
    // Offsets: beyond ±14:00, or minutes that are not minutes.
    ['2023-05-08T13:56:00+99:99', 'offset minutes must be 00 to 59'],
    ['2023-05-08T13:56:00+15:00', 'within ±14:00'],
    ['2023-05-08T13:56:00-14:30', 'within ±14:00'],
    ['2023-05-08T13:56:00+0560', 'offset minutes must be 00 to 59'],
    // Days, months and times that do not exist.
    ['2023-02-29', 'February 2023 has days 1 to 28'],
    ['2024-02-30', 'February 2024 has days 1 to 29'],
    ['2023-04-31T10:00:00Z', 'April 2023 has days 1 to 30'],
    ['2023-13-01', 'month must be 01 to 12'],
    ['2023-00-10', 'month must be 01 to 12'],
    ['2023-05-00', 'May 2023 has days 1 to 31'],
    ['2023-05-08T24:00:00Z', 'hour must be 00 to 23'],
    ['2023-05-08T13:60:00Z', 'minutes must be 00 to 59'],
    ['2023-05-08T13:56:60Z', 'seconds must be 00 to 59'],
    ['13:00 pm on 8 May, 2023', 'hour must be 1 to 12'],
    ['0:30 am on 8 May, 2023', 'hour must be 1 to 12'],
    ['1:60 pm on 8 May, 2023', 'minutes must be 00 to 59'],
    ['1:56 pm on 31 April, 2023', 'April 2023 has days 1 to 30'],
    // Years no chat turn carries.
    ['9999-12-31T23:59:59Z', 'year must be between 1900 and 2027'],
    ['2028-01-01', 'year must be between 1900 and 2027'],
    ['1899-12-31', 'year must be between 1900 and 2027'],
    ['0001-01-01', 'year must be between 1900 and 2027'],
    ['1:56 pm on 8 May, 9999', 'year must be between 1900 and 2027'],
    // Not a format we read.
    ['1:56 pm on 8 Mayo, 2023', 'not an English month name'],
    ['yesterday', 'not a date in a format Cairn reads'],
    ['8/5/2023', 'not a date in a format Cairn reads'],
    ['', 'not a date in a format Cairn reads'],
  ])('refuses %j: %s', (text, reason) => {
    expect(at(text)).toContain(reason);
  });

  it('moves the upper year bound with the clock', () => {
    expect(parseIngestDate('2031-06-01', Date.UTC(2030, 0, 1)).ok).toBe(true);
    expect(parseIngestDate('2031-06-01', NOW).ok).toBe(false);
  });
});
