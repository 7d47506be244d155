// Pending signals (DESIGN §3, §6): one row per recorded turn awaiting distillation. The
// distiller claims a conversation's pending rows ('processing'), then marks them processed,
// or counts a failed attempt (back to 'pending', or 'dead_letter' after the last attempt).
// Every query is scoped by agent_id.
import type { Db } from './db.ts';
import { cachedStatement } from './statement-cache.ts';

export type SignalStatus = 'pending' | 'processing' | 'processed' | 'dead_letter';

export interface SignalRecord {
  id: number;
  agent_id: string;
  conversation_id: string;
  status: SignalStatus;
  attempts: number;
  last_error: string | null;
  first_transcript_id: number | null;
  last_transcript_id: number | null;
  created_at: number;
  updated_at: number;
}

export const MAX_DISTILL_ATTEMPTS = 3;

/** Moves the conversation's pending signals to 'processing' and returns them. */
export function claimPendingSignals(
  db: Db,
  agentId: string,
  conversationId: string,
  now: number,
): SignalRecord[] {
  return cachedStatement(
    db,
    `UPDATE pending_signals SET status = 'processing', updated_at = ?
     WHERE agent_id = ? AND conversation_id = ? AND status = 'pending'
     RETURNING *`,
  ).all(now, agentId, conversationId) as SignalRecord[];
}

export function markSignalsProcessed(db: Db, agentId: string, ids: number[], now: number): void {
  // `+agent_id`: found by id (the list is short), never by walking every signal the agent
  // ever had through the (agent_id, ...) index, which grew with each turn recorded.
  cachedStatement(
    db,
    `UPDATE pending_signals SET status = 'processed', updated_at = ?, last_error = NULL
     WHERE +agent_id = ? AND id IN (SELECT value FROM json_each(?))`,
  ).run(now, agentId, JSON.stringify(ids));
}

/**
 * Counts one failed attempt: back to 'pending', or 'dead_letter' once `maxAttempts` is
 * reached. Returns the highest attempt count among the signals.
 */
export function markSignalsFailed(
  db: Db,
  agentId: string,
  ids: number[],
  error: string,
  now: number,
  maxAttempts = MAX_DISTILL_ATTEMPTS,
): { attempts: number; deadLettered: boolean } {
  const rows = db
    .prepare(
      `UPDATE pending_signals SET attempts = attempts + 1, last_error = ?, updated_at = ?,
         status = CASE WHEN attempts + 1 >= ? THEN 'dead_letter' ELSE 'pending' END
       WHERE +agent_id = ? AND id IN (SELECT value FROM json_each(?))
       RETURNING attempts, status`,
    )
    .all(error.slice(0, 1000), now, maxAttempts, agentId, JSON.stringify(ids)) as {
    attempts: number;
    status: SignalStatus;
  }[];
  const attempts = rows.reduce((m, r) => Math.max(m, r.attempts), 0);
  return { attempts, deadLettered: rows.some((r) => r.status === 'dead_letter') };
}

/**
 * Start-up recovery: signals left 'processing' by a process that died are pending again.
 * Returns the number reset.
 */
export function resetStaleProcessing(db: Db, now: number): number {
  return db
    .prepare(
      `UPDATE pending_signals SET status = 'pending', updated_at = ? WHERE status = 'processing'`,
    )
    .run(now).changes;
}

/** Conversations with pending signals, oldest first (start-up recovery). */
export function listPendingConversations(
  db: Db,
): { agent_id: string; conversation_id: string; oldest: number; newest: number }[] {
  return db
    .prepare(
      `SELECT agent_id, conversation_id, min(created_at) AS oldest, max(created_at) AS newest
       FROM pending_signals WHERE status = 'pending'
       GROUP BY agent_id, conversation_id ORDER BY oldest`,
    )
    .all() as { agent_id: string; conversation_id: string; oldest: number; newest: number }[];
}

export function listSignals(
  db: Db,
  options: { statuses: SignalStatus[]; limit: number; agentId?: string },
): SignalRecord[] {
  const params: (string | number)[] = [JSON.stringify(options.statuses)];
  let where = 'status IN (SELECT value FROM json_each(?))';
  if (options.agentId !== undefined) {
    where += ' AND agent_id = ?';
    params.push(options.agentId);
  }
  return db
    .prepare(
      `SELECT * FROM pending_signals WHERE ${where} ORDER BY updated_at DESC, id DESC LIMIT ?`,
    )
    .all(...params, options.limit) as SignalRecord[];
}

export function getSignal(db: Db, id: number): SignalRecord | null {
  return (
    (db.prepare('SELECT * FROM pending_signals WHERE id = ?').get(id) as
      SignalRecord | undefined) ?? null
  );
}

/**
 * A dead letter goes back to 'pending' with a fresh attempt budget; the last error is kept
 * until the next attempt replaces it. Returns null when the signal is not a dead letter.
 */
export function retryDeadLetter(db: Db, id: number, now: number): SignalRecord | null {
  return (
    (db
      .prepare(
        `UPDATE pending_signals SET status = 'pending', attempts = 0, updated_at = ?
         WHERE id = ? AND status = 'dead_letter' RETURNING *`,
      )
      .get(now, id) as SignalRecord | undefined) ?? null
  );
}

export interface ConversationMessage {
  id: number;
  role: string;
  content: string;
  created_at: number;
}

/**
 * The conversation's transcript, oldest first. The distiller reads the whole conversation
 * (not just the new turns) so the episode always summarises all of it; `maxRows` keeps the
 * newest rows of a very long one.
 */
export function conversationMessages(
  db: Db,
  agentId: string,
  conversationId: string,
  maxRows: number,
): ConversationMessage[] {
  const rows = cachedStatement(
    db,
    `SELECT id, role, content, created_at FROM transcript
     WHERE agent_id = ? AND conversation_id = ? ORDER BY id DESC LIMIT ?`,
  ).all(agentId, conversationId, maxRows) as ConversationMessage[];
  return rows.reverse();
}

/** Gives claimed signals back without counting an attempt (shutdown interrupted the work). */
export function releaseSignals(db: Db, agentId: string, ids: number[], now: number): void {
  db.prepare(
    `UPDATE pending_signals SET status = 'pending', updated_at = ?
     WHERE agent_id = ? AND status = 'processing' AND id IN (SELECT value FROM json_each(?))`,
  ).run(now, agentId, JSON.stringify(ids));
}
