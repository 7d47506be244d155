import { describe, expect, it } from 'vitest';
import { databasePerTest } from '../../../../test/helpers/database-per-test.ts';
import {
  getMemoryAdditions,
  memoryAdditionPositions,
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
  it('tells which positions of one conversation hold additions and reads only those asked for', () => {
    const db = openDb();
    // A client that sends only its newest message: every addition sits at position 1.
    for (const hash of ['h1', 'h2', 'h3']) saveMemoryAddition(db, 'a', 'c', addition(1, hash), 10);
    saveMemoryAddition(db, 'a', 'other', addition(1, 'h4'), 10);
    saveMemoryAddition(db, 'b', 'c', addition(1, 'h5'), 10);

    saveMemoryAddition(db, 'a', 'c', addition(5, 'h6'), 10);
    expect([...memoryAdditionPositions(db, 'a', 'c', [0, 1, 2, 3, 5])].sort()).toEqual([1, 5]);
    // Another conversation's or agent's positions are not this one's.
    expect([...memoryAdditionPositions(db, 'a', 'none', [1, 5])]).toEqual([]);
    expect([...memoryAdditionPositions(db, 'b', 'c', [5])]).toEqual([]);
    expect([...memoryAdditionPositions(db, 'a', 'c', [])]).toEqual([]);
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
