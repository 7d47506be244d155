import { describe, expect, it } from 'vitest';
import { parseIngestDate } from './ingest-dates.ts';

describe('parseIngestDate', () => {
  it.each([
    ['2023-05-08', Date.UTC(2023, 4, 8)],
    ['2023-05-08T13:56:00Z', Date.UTC(2023, 4, 8, 13, 56)],
    ['2023-05-08T13:56:07.250Z', Date.UTC(2023, 4, 8, 13, 56, 7, 250)],
    ['2023-05-08 13:56', Date.UTC(2023, 4, 8, 13, 56)],
    ['2023-05-08T15:56:00+02:00', Date.UTC(2023, 4, 8, 13, 56)],
    ['2023-05-08T08:26:00-0530', Date.UTC(2023, 4, 8, 13, 56)],
    ['1:56 pm on 8 May, 2023', Date.UTC(2023, 4, 8, 13, 56)],
    ['12:05 am on 1 January, 2024', Date.UTC(2024, 0, 1, 0, 5)],
    ['12:30 pm on 29 Feb, 2024', Date.UTC(2024, 1, 29, 12, 30)],
    ['10:04 AM on 3 Sept, 2022', Date.UTC(2022, 8, 3, 10, 4)],
    ['8 May, 2023', Date.UTC(2023, 4, 8)],
    ['  7 pm on 8 May 2023 ', Date.UTC(2023, 4, 8, 19, 0)],
  ])('%s', (text, expected) => {
    expect(parseIngestDate(text)).toBe(expected);
  });

  it.each([
    'yesterday',
    '2023-02-30',
    '2023-13-01',
    '13:00 pm on 8 May, 2023',
    '1:56 pm on 31 April, 2023',
    '1:56 pm on 8 Mayo, 2023',
    '8/5/2023',
    '',
  ])('rejects %j', (text) => {
    expect(parseIngestDate(text)).toBeNull();
  });
});
