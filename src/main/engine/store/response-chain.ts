// OpenAI Responses' `previous_response_id` against an upstream that speaks only chat
// completions (migration 007): each stored response holds the chat messages it added (its
// input, then its output) and the response it continued.
//
// `<private>` spans never reach the disk (DESIGN §6): every string in the stored messages has
// its spans replaced by `[private]` here, so no caller can forget it (migration 012 scrubbed the
// rows stored before). That is the price of the promise: a request continuing a chain with
// `previous_response_id` replays the history with `[private]` where the secret was, so the
// model no longer sees it. A client that needs the model to keep seeing it sends the whole
// history in `input` itself (with `store: false`); that request reaches the upstream as sent.
import { stripPrivate } from '../text/private.ts';
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

/**
 * A JSON value with `<private>` spans replaced in every string it holds (message contents,
 * text parts, tool arguments and results); keys and structure stay. Spans are matched within
 * one string, never across the JSON text, so an unclosed tag hides the rest of its own string
 * and nothing else.
 */
function stripPrivateDeep(value: unknown): unknown {
  if (typeof value === 'string') return stripPrivate(value);
  if (Array.isArray(value)) return value.map(stripPrivateDeep);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, stripPrivateDeep(v)] as const),
    );
  }
  return value;
}

/**
 * The stored `messages` JSON with its private spans replaced. Text that is not JSON (never
 * written by Cairn) is scrubbed as plain text.
 */
export function stripPrivateMessages(json: string): string {
  // Every spelling of a tag holds the word, and JSON never escapes letters: a cheap pre-check.
  if (!/private/iu.test(json)) return json;
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return stripPrivate(json);
  }
  return JSON.stringify(stripPrivateDeep(parsed));
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
    stripPrivateMessages(response.messages),
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

/** The ids of the responses stored for one conversation of an agent (deleting it). */
export function responseIdsOfConversation(
  db: Db,
  agentId: string,
  conversationId: string,
): string[] {
  return db
    .prepare('SELECT id FROM response_chain WHERE agent_id = ? AND conversation_id = ?')
    .pluck()
    .all(agentId, conversationId) as string[];
}

/** The ids of every response stored for an agent (deleting the agent). */
export function responseIdsOfAgent(db: Db, agentId: string): string[] {
  return db
    .prepare('SELECT id FROM response_chain WHERE agent_id = ?')
    .pluck()
    .all(agentId) as string[];
}
