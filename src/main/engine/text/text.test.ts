import { describe, expect, it } from 'vitest';
import { databasePerTest } from '../../../../test/helpers/database-per-test.ts';
import { recordTurn } from '../store/transcript.ts';
import {
  buildMatchExpression,
  buildPairedMatchExpression,
  escapeLike,
  hasContentWords,
  jaccard,
  queryTerms,
  wordSet,
} from './text.ts';

const freshDb = databasePerTest();

const NASTY = [
  '"',
  '""',
  '"unterminated',
  '*',
  'foo*',
  '^start',
  'NEAR(',
  'NEAR(a b, 3)',
  'a AND',
  'AND OR NOT',
  ')',
  '((a)',
  'col:value',
  'content: x',
  "'; DROP TABLE transcript; --",
  '-- comment',
  '{a b}',
  'a + b - c',
  '%_%',
  '\\',
  '\u0000nul',
  '日本語のテキスト',
  '🔥🔥',
  '   ',
  '',
  'x'.repeat(5000),
];

describe('queryTerms', () => {
  it('drops stop words and question words, keeps content words', () => {
    expect(queryTerms('When did Helena go to the climbing gym?')).toEqual([
      'helena',
      'go',
      'climbing',
      'gym',
    ]);
    expect(queryTerms("What is Rosalind's hobby?")).toEqual(['rosalind', 'hobby']);
  });

  it('searches a chat form with the word it stands for', () => {
    expect(queryTerms("when's my bday again")).toEqual(['bday', 'birthday']);
    expect(queryTerms('dentist appt tmrw')).toEqual([
      'dentist',
      'appt',
      'appointment',
      'tmrw',
      'tomorrow',
    ]);
  });

  it('keeps the words of a query made only of stop words', () => {
    expect(queryTerms('who am I')).toEqual(['who', 'am', 'i']);
  });

  it('caps the number of terms', () => {
    const many = Array.from({ length: 100 }, (_, i) => `word${i}`).join(' ');
    expect(queryTerms(many).length).toBeLessThanOrEqual(24);
  });
});

describe('buildMatchExpression', () => {
  it('quotes every term and OR-joins them', () => {
    expect(buildMatchExpression(['a', 'b'])).toBe('"a" OR "b"');
    expect(buildMatchExpression(['say "hi"'])).toBe('"say ""hi"""');
    expect(buildMatchExpression(['python'], { prefix: true })).toBe('"python"*');
    expect(buildMatchExpression([])).toBeNull();
  });

  it('never produces an expression FTS5 rejects, whatever the input', () => {
    const db = freshDb();
    recordTurn(db, {
      agentId: 'a',
      conversationId: 'c',
      messages: [{ role: 'user', content: 'near and not or drop table', createdAt: 1 }],
    });
    const stmt = db.prepare(
      `SELECT rowid FROM transcript_stem_fts WHERE transcript_stem_fts MATCH ?`,
    );
    for (const input of NASTY) {
      for (const prefix of [false, true]) {
        const expr = buildMatchExpression(queryTerms(input), { prefix });
        if (expr === null) continue;
        expect(() => stmt.all(expr), input).not.toThrow();
      }
      // raw terms (not just words) are quoted safely too
      const raw = buildMatchExpression([input]);
      if (raw !== null) expect(() => stmt.all(raw), input).not.toThrow();
    }
    // operators are plain words: "AND OR NOT" finds the row containing them
    expect(stmt.all(buildMatchExpression(queryTerms('NEAR AND')) as string)).toHaveLength(1);
  });
});

describe('buildPairedMatchExpression', () => {
  it('matches rare terms alone and common ones in pairs', () => {
    expect(buildPairedMatchExpression(['axolotl'], ['sunny', 'weather', 'day'])).toBe(
      '"axolotl" OR ("sunny" AND "weather") OR ("sunny" AND "day") OR ("weather" AND "day")',
    );
    expect(buildPairedMatchExpression([], ['only'])).toBe('"only"');
    expect(buildPairedMatchExpression([], [])).toBeNull();
  });

  it('is accepted by FTS5 and matches co-occurring common words only', () => {
    const db = freshDb();
    for (const content of ['sunny weather today', 'sunny but cold', 'an axolotl']) {
      recordTurn(db, {
        agentId: 'a',
        conversationId: 'c',
        messages: [{ role: 'user', content, createdAt: 1 }],
      });
    }
    const stmt = db.prepare(
      `SELECT rowid FROM transcript_stem_fts WHERE transcript_stem_fts MATCH ? ORDER BY rowid`,
    );
    const expr = buildPairedMatchExpression(['axolotl'], ['sunny', 'weather', 'NEAR(', '"'])!;
    expect(stmt.all(expr)).toEqual([{ rowid: 1 }, { rowid: 3 }]);
  });
});

describe('escapeLike / similarity', () => {
  it('escapes LIKE wildcards', () => {
    expect(escapeLike('50%_off\\')).toBe('50\\%\\_off\\\\');
  });

  it('computes word-set Jaccard without stop words', () => {
    const a = wordSet('I love green tea');
    const b = wordSet('green tea is what I love');
    expect(jaccard(a, b)).toBe(1);
    expect(jaccard(wordSet('cats'), wordSet('dogs'))).toBe(0);
    expect(jaccard(new Set(), new Set())).toBe(0);
    expect(jaccard(new Set(), new Set(['tea']))).toBe(0);
  });

  it('counts content words as wordSet does, stopping once there are enough', () => {
    const texts = ['ok', 'haha nice!', 'Yes, yes, YES', 'I went to the big lake with Ana', ''];
    for (const t of texts) {
      for (const n of [0, 1, 2, 3, 5]) expect(hasContentWords(t, n)).toBe(wordSet(t).size >= n);
    }
    expect(hasContentWords('Lake lake LAKE', 2)).toBe(false);
  });
});
