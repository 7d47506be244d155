import { describe, expect, it } from 'vitest';
import { databasePerTest } from '../../../../test/helpers/database-per-test.ts';
import {
  claimPendingSignals,
  conversationMessages,
  listPendingConversations,
  markSignalsFailed,
  markSignalsProcessed,
  releaseSignals,
  resetStaleProcessing,
  retryDeadLetter,
} from './signals.ts';
import { recordTurn } from './transcript.ts';

const freshDb = databasePerTest();

function setup() {
  const db = freshDb();
  const rec = (agent: string, conv: string, text: string, at: number) =>
    recordTurn(db, {
      agentId: agent,
      conversationId: conv,
      messages: [{ role: 'user', content: text, createdAt: at }],
      now: at,
    });
  return { db, rec };
}

describe('signals repository', () => {
  it('claims only the conversation’s pending signals, scoped by agent', () => {
    const { db, rec } = setup();
    rec('a', 'c', 'one', 1);
    rec('a', 'c', 'two', 2);
    rec('b', 'c', 'other agent', 3);
    const claimed = claimPendingSignals(db, 'a', 'c', 10);
    expect(claimed.map((s) => s.status)).toEqual(['processing', 'processing']);
    expect(claimPendingSignals(db, 'a', 'c', 11)).toEqual([]);
    expect(listPendingConversations(db).map((p) => p.agent_id)).toEqual(['b']);
    markSignalsProcessed(
      db,
      'a',
      claimed.map((s) => s.id),
      12,
    );
    expect(conversationMessages(db, 'a', 'c', 10).map((m) => m.content)).toEqual(['one', 'two']);
    expect(conversationMessages(db, 'a', 'c', 1).map((m) => m.content)).toEqual(['two']);
  });

  it('counts attempts, dead-letters at the limit and retries with a fresh budget', () => {
    const { db, rec } = setup();
    const { signalId } = rec('a', 'c', 'x', 1);
    for (let i = 1; i <= 3; i++) {
      expect(claimPendingSignals(db, 'a', 'c', i)).toHaveLength(1);
      const r = markSignalsFailed(db, 'a', [signalId], `boom ${i}`, i, 3);
      expect(r).toEqual({ attempts: i, deadLettered: i === 3 });
    }
    expect(claimPendingSignals(db, 'a', 'c', 9)).toEqual([]);
    const retried = retryDeadLetter(db, signalId, 10);
    expect(retried).toMatchObject({ status: 'pending', attempts: 0, last_error: 'boom 3' });
    expect(retryDeadLetter(db, signalId, 11)).toBeNull(); // not a dead letter any more
  });

  it('releases and resets stale processing rows without counting an attempt', () => {
    const { db, rec } = setup();
    const { signalId } = rec('a', 'c', 'x', 1);
    claimPendingSignals(db, 'a', 'c', 2);
    releaseSignals(db, 'a', [signalId], 3);
    claimPendingSignals(db, 'a', 'c', 4);
    expect(resetStaleProcessing(db, 5)).toBe(1);
    const [again] = claimPendingSignals(db, 'a', 'c', 6);
    expect(again).toMatchObject({ id: signalId, attempts: 0 });
  });
});
