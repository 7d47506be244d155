import { describe, expect, it } from 'vitest';
import { databasePerTest } from '../../../../test/helpers/database-per-test.ts';
import {
  deleteMemoryAdditions,
  getMemoryAdditions,
  listMemoryAdditions,
  memoryAdditionPositions,
  queueMemoryAddition,
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

describe('memory additions queued for the group commit', () => {
  it('are stored with the next commit, the first one for a message winning', async () => {
    const db = openDb();
    const first = queueMemoryAddition(db, 'a', 'c', addition(1, 'h1', 'first'), 10);
    const resent = queueMemoryAddition(db, 'a', 'c', addition(1, 'h1', 'second'), 11);
    await Promise.all([first, resent]);
    expect(listMemoryAdditions(db, 'a', 'c')).toEqual([addition(1, 'h1', 'first')]);
  });

  it('never outlive a deletion that comes while they wait', async () => {
    const db = openDb();
    const queued = [
      queueMemoryAddition(db, 'a', 'c', addition(1, 'h1'), 10),
      queueMemoryAddition(db, 'a', 'other', addition(1, 'h2'), 10),
    ];
    // Forgetting the conversation (and then the agent) before the group commits: the queued
    // additions go in first and are deleted with the rest, not written after.
    expect(deleteMemoryAdditions(db, 'a', 'c')).toBe(1);
    await Promise.all(queued);
    expect(listMemoryAdditions(db, 'a', 'c')).toEqual([]);
    expect(listMemoryAdditions(db, 'a', 'other')).toEqual([addition(1, 'h2')]);
    const later = queueMemoryAddition(db, 'a', 'other', addition(2, 'h3'), 12);
    expect(deleteMemoryAdditions(db, 'a')).toBe(2);
    await later;
    expect(listMemoryAdditions(db, 'a', 'other')).toEqual([]);
  });
});
