import { describe, expect, it } from 'vitest';
import { databasePerTest } from '../../../../test/helpers/database-per-test.ts';
import {
  getMemoryAdditions,
  listMemoryAdditionKeys,
  saveMemoryAddition,
} from './memory-additions.ts';

const openDb = databasePerTest();

const addition = (messageIndex: number, contentHash: string, added = `block ${contentHash}`) => ({
  messageIndex,
  contentHash,
  shape: 'suffix' as const,
  added,
  section: 'pinned',
  tokens: 9,
});

describe('memory additions read by key', () => {
  it('lists the keys of one conversation and reads only the additions asked for', () => {
    const db = openDb();
    // A client that sends only its newest message: every addition sits at position 1.
    for (const hash of ['h1', 'h2', 'h3']) saveMemoryAddition(db, 'a', 'c', addition(1, hash), 10);
    saveMemoryAddition(db, 'a', 'other', addition(1, 'h4'), 10);
    saveMemoryAddition(db, 'b', 'c', addition(1, 'h5'), 10);

    const keys = listMemoryAdditionKeys(db, 'a', 'c');
    expect(keys.sort((x, y) => x.contentHash.localeCompare(y.contentHash))).toEqual([
      { messageIndex: 1, contentHash: 'h1' },
      { messageIndex: 1, contentHash: 'h2' },
      { messageIndex: 1, contentHash: 'h3' },
    ]);
    expect(
      getMemoryAdditions(db, 'a', 'c', [
        { messageIndex: 1, contentHash: 'h2' },
        // Not remembered here: another conversation's, another agent's, another position.
        { messageIndex: 1, contentHash: 'h4' },
        { messageIndex: 1, contentHash: 'h5' },
        { messageIndex: 3, contentHash: 'h1' },
      ]),
    ).toEqual([addition(1, 'h2')]);
    expect(getMemoryAdditions(db, 'a', 'c', [])).toEqual([]);
  });
});
