import { describe, expect, it } from 'vitest';
import { datesAskedAbout } from './dates.ts';

const NOW = Date.UTC(2026, 10, 25, 12); // Wednesday 25 November 2026
const HOUR = 3_600_000;
const day = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d);
const span = (q: string) => datesAskedAbout(q, NOW);

describe('datesAskedAbout', () => {
  it.each([
    ['What exciting news did Noor share on 4 September, 2021?', day(2021, 9, 4), day(2021, 9, 5)],
    ['What did Tomasz show Ines on February 2, 2022?', day(2022, 2, 2), day(2022, 2, 3)],
    ['what did I say on the 3rd of June', day(2026, 6, 3), day(2026, 6, 4)],
    ['What did Olu host in July 2021?', day(2021, 7, 1), day(2021, 8, 1)],
    ['Sept. 4 2024 meeting notes?', day(2024, 9, 4), day(2024, 9, 5)],
    ['notes from 2024-09-04?', day(2024, 9, 4), day(2024, 9, 5)],
    ['what did I say yesterday about the lease?', day(2026, 11, 24), day(2026, 11, 25)],
    ['What did I tell you on Monday?', day(2026, 11, 23), day(2026, 11, 24)],
    ['what did I say this morning?', day(2026, 11, 25), day(2026, 11, 26)],
    ['what did we talk about earlier today?', day(2026, 11, 25), day(2026, 11, 26)],
    ['what did I tell you last night?', day(2026, 11, 24), day(2026, 11, 25)],
  ])('%s', (q, from, to) => {
    // Each side widened by the time zones' spread: the user's day, not UTC's.
    expect(span(q)).toMatchObject([{ from: from - 14 * HOUR, to: to + 14 * HOUR }]);
  });

  it('a week around the day for "last week" and "two weeks ago"', () => {
    const [w] = span('What did we talk about last week?');
    expect(w!.to - w!.from).toBe(7 * 24 * HOUR + 28 * HOUR);
    expect(span('two weeks ago I mentioned a book')).toHaveLength(1);
  });

  it.each([
    'What may I eat?',
    'Explain the March of Progress image',
    'What is 16 times 3?',
    'How do I format a date in Python?',
  ])('none in %j', (q) => {
    expect(span(q)).toEqual([]);
  });
});
