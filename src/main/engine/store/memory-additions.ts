// What Cairn added to user messages, per conversation (migration 007, DESIGN §9 "sticky"):
// its keys read on every request with memory, written when a fresh block is placed. Every
// query is scoped by agent_id and conversation_id.
import type { Db } from './db.ts';
import { groupCommit } from './group-commit.ts';
import { cachedStatement } from './statement-cache.ts';

export interface MemoryAddition {
  messageIndex: number;
  contentHash: string;
  /** `suffix`: text appended to string content; `part`: a JSON content part appended. */
  shape: 'suffix' | 'part';
  /** The exact text (suffix) or the exact serialised part. */
  added: string;
  section: string;
  tokens: number;
}

interface AdditionRow {
  message_index: number;
  content_hash: string;
  shape: 'suffix' | 'part';
  added: string;
  section: string;
  tokens: number;
}

/** Every addition remembered for a conversation (whole, with the added bytes). */
export function listMemoryAdditions(
  db: Db,
  agentId: string,
  conversationId: string,
): MemoryAddition[] {
  const select = cachedStatement(
    db,
    `SELECT message_index, content_hash, shape, added, section, tokens
       FROM memory_additions WHERE agent_id = ? AND conversation_id = ?`,
  );
  return (select.all(agentId, conversationId) as AdditionRow[]).map(toAddition);
}

/** Which message (position and hash of its original content) an addition belongs to. */
export interface MemoryAdditionKey {
  messageIndex: number;
  contentHash: string;
}

/**
 * Which of these message positions hold an addition in this conversation. A client that sends
 * only its newest message (or one conversation of many requests) piles additions up at one
 * position, so the positions are probed (one primary-key seek each), never listed: a request
 * costs the same after ten thousand turns as after one. The caller then hashes only those
 * messages and reads the additions by their whole key.
 */
export function memoryAdditionPositions(
  db: Db,
  agentId: string,
  conversationId: string,
  positions: readonly number[],
): Set<number> {
  if (positions.length === 0) return new Set();
  const rows = cachedStatement(
    db,
    `SELECT j.value AS position FROM json_each(?) AS j
      WHERE EXISTS (SELECT 1 FROM memory_additions
                     WHERE agent_id = ? AND conversation_id = ? AND message_index = j.value)`,
  ).all(JSON.stringify(positions), agentId, conversationId) as { position: number }[];
  return new Set(rows.map((r) => r.position));
}

/** The additions of a conversation with these keys (those remembered), each by primary key. */
export function getMemoryAdditions(
  db: Db,
  agentId: string,
  conversationId: string,
  keys: readonly MemoryAdditionKey[],
): MemoryAddition[] {
  const get = cachedStatement(
    db,
    `SELECT message_index, content_hash, shape, added, section, tokens FROM memory_additions
       WHERE agent_id = ? AND conversation_id = ? AND message_index = ? AND content_hash = ?`,
  );
  return keys.flatMap((k) => {
    const r = get.get(agentId, conversationId, k.messageIndex, k.contentHash) as
      AdditionRow | undefined;
    return r ? [toAddition(r)] : [];
  });
}

const toAddition = (r: AdditionRow): MemoryAddition => ({
  messageIndex: r.message_index,
  contentHash: r.content_hash,
  shape: r.shape,
  added: r.added,
  section: r.section,
  tokens: r.tokens,
});

/** Remembers an addition; the first one for a message wins (a resend re-uses it). */
export function saveMemoryAddition(
  db: Db,
  agentId: string,
  conversationId: string,
  addition: MemoryAddition,
  now: number,
): void {
  cachedStatement(
    db,
    `INSERT OR IGNORE INTO memory_additions
       (agent_id, conversation_id, message_index, content_hash, shape, added, section, tokens, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    agentId,
    conversationId,
    addition.messageIndex,
    addition.contentHash,
    addition.shape,
    addition.added,
    addition.section,
    addition.tokens,
    now,
  );
}

/**
 * saveMemoryAddition without a commit of its own on the request path: the insert joins the
 * connection's next group commit (group-commit.ts: at the next turn of the event loop at the
 * latest, while the request still waits for its answer, so a resend finds it). A crash in
 * between loses only this addition: the message gets a fresh block when it comes again.
 */
export function queueMemoryAddition(
  db: Db,
  agentId: string,
  conversationId: string,
  addition: MemoryAddition,
  now: number,
): Promise<void> {
  return groupCommit(db).write(() =>
    saveMemoryAddition(db, agentId, conversationId, addition, now),
  );
}

/** Forgets the additions of one conversation, or of every conversation of the agent. */
export function deleteMemoryAdditions(db: Db, agentId: string, conversationId?: string): number {
  // Additions still queued (queueMemoryAddition) are written first, so none outlives this.
  if (!db.inTransaction) groupCommit(db).flush();
  return conversationId === undefined
    ? db.prepare('DELETE FROM memory_additions WHERE agent_id = ?').run(agentId).changes
    : db
        .prepare('DELETE FROM memory_additions WHERE agent_id = ? AND conversation_id = ?')
        .run(agentId, conversationId).changes;
}
