// What Cairn added to user messages, per conversation (migration 007, DESIGN §9 "sticky"):
// its keys read on every request with memory, written when a fresh block is placed. Every
// query is scoped by agent_id and conversation_id.
import type { Db } from './db.ts';
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
 * The keys of every addition remembered for a conversation, without the added bytes: a client
 * that sends only its newest message (or a conversation of many requests) has many additions
 * at one position, and only the one whose hash matches is ever read in full. The keys are the
 * primary key's columns, so the blocks' overflow pages are never read (or decrypted).
 */
export function listMemoryAdditionKeys(
  db: Db,
  agentId: string,
  conversationId: string,
): MemoryAdditionKey[] {
  return (
    cachedStatement(
      db,
      `SELECT message_index, content_hash FROM memory_additions
         WHERE agent_id = ? AND conversation_id = ?`,
    ).all(agentId, conversationId) as Pick<AdditionRow, 'message_index' | 'content_hash'>[]
  ).map((r) => ({ messageIndex: r.message_index, contentHash: r.content_hash }));
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

/** Forgets the additions of one conversation, or of every conversation of the agent. */
export function deleteMemoryAdditions(db: Db, agentId: string, conversationId?: string): number {
  return conversationId === undefined
    ? db.prepare('DELETE FROM memory_additions WHERE agent_id = ?').run(agentId).changes
    : db
        .prepare('DELETE FROM memory_additions WHERE agent_id = ? AND conversation_id = ?')
        .run(agentId, conversationId).changes;
}
