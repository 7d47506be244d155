// OpenAI Responses' `previous_response_id` against an upstream that speaks only chat
// completions (migration 007): each stored response holds the chat messages it added (its
// input, then its output) and the response it continued.
import type { Db } from './migrate.ts';

export interface StoredResponse {
  id: string;
  /** '' for a request without the agent header. */
  agentId: string;
  conversationId: string | null;
  previousId: string | null;
  /** JSON: the chat messages this response added to the conversation. */
  messages: string;
  createdAt: number;
}

interface ResponseRow {
  id: string;
  agent_id: string;
  conversation_id: string | null;
  previous_id: string | null;
  messages: string;
  created_at: number;
}

export function saveResponse(db: Db, response: StoredResponse): void {
  db.prepare(
    `INSERT OR REPLACE INTO response_chain
       (id, agent_id, conversation_id, previous_id, messages, created_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  ).run(
    response.id,
    response.agentId,
    response.conversationId,
    response.previousId,
    response.messages,
    response.createdAt,
  );
}

/**
 * The chain ending at `id`, oldest first, or null when `id` is unknown to this agent (or a
 * link is missing). At most `maxDepth` links are followed.
 */
export function loadResponseChain(
  db: Db,
  agentId: string,
  id: string,
  maxDepth = 10_000,
): StoredResponse[] | null {
  const select = db.prepare(
    `SELECT id, agent_id, conversation_id, previous_id, messages, created_at
       FROM response_chain WHERE id = ? AND agent_id = ?`,
  );
  const chain: StoredResponse[] = [];
  let next: string | null = id;
  while (next !== null && chain.length < maxDepth) {
    const row = select.get(next, agentId) as ResponseRow | undefined;
    if (!row) return null;
    chain.push({
      id: row.id,
      agentId: row.agent_id,
      conversationId: row.conversation_id,
      previousId: row.previous_id,
      messages: row.messages,
      createdAt: row.created_at,
    });
    next = row.previous_id;
  }
  return chain.reverse();
}

/** Removes responses stored before `before` (ms since the epoch). */
export function pruneResponses(db: Db, before: number): number {
  return db.prepare('DELETE FROM response_chain WHERE created_at < ?').run(before).changes;
}
