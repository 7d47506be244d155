// Episodes (DESIGN §3): one per distilled conversation. List columns are JSON arrays; times
// are ms since the epoch. FTS and vector rows follow by trigger (001). Every query is scoped
// by agent_id. Every text written here has its `<private>` spans replaced first (DESIGN §6).
import { stripPrivate } from '../text/private.ts';
import type { Db } from './db.ts';
import { selectPage } from './page.ts';
import { cachedStatement } from './statement-cache.ts';
import { updateAgentRow } from './update-agent-row.ts';

export interface EpisodeRecord {
  id: number;
  agent_id: string;
  conversation_id: string | null;
  summary: string;
  topics: string[];
  entities: string[];
  decisions: string[];
  action_items: string[];
  salience: number;
  conversation_at: number;
  last_used: number | null;
  last_decay_at: number | null;
  created_at: number;
  updated_at: number;
}

interface EpisodeRow extends Omit<
  EpisodeRecord,
  'topics' | 'entities' | 'decisions' | 'action_items'
> {
  topics: string;
  entities: string;
  decisions: string;
  action_items: string;
}

/** The strings of a JSON list column (episodes, facts' tags, identity overrides); [] if damaged. */
export function parseJsonList(json: string): string[] {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/** A list column as stored: JSON, each item with its private spans replaced. */
function storedList(items: readonly string[]): string {
  return JSON.stringify(items.map(stripPrivate));
}

export function toEpisodeRecord(r: EpisodeRow): EpisodeRecord {
  return {
    ...r,
    topics: parseJsonList(r.topics),
    entities: parseJsonList(r.entities),
    decisions: parseJsonList(r.decisions),
    action_items: parseJsonList(r.action_items),
  };
}

export interface EpisodeInput {
  agentId: string;
  conversationId: string | null;
  summary: string;
  topics: string[];
  entities: string[];
  decisions: string[];
  actionItems: string[];
  salience: number;
  conversationAt: number;
  /** When it was last put in a prompt: an import keeps the exported value; else null. */
  lastUsed?: number | null;
}

export function insertEpisode(db: Db, e: EpisodeInput, now: number): number {
  return Number(
    cachedStatement(
      db,
      `INSERT INTO episodes (agent_id, conversation_id, summary, topics, entities, decisions,
         action_items, salience, conversation_at, last_used, last_decay_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      e.agentId,
      e.conversationId,
      stripPrivate(e.summary),
      storedList(e.topics),
      storedList(e.entities),
      storedList(e.decisions),
      storedList(e.actionItems),
      e.salience,
      e.conversationAt,
      e.lastUsed ?? null,
      now,
      now,
      now,
    ).lastInsertRowid,
  );
}

/**
 * One episode per conversation: a later distillation of the same conversation (more turns
 * after the debounce fired) replaces the earlier digest, keeping the higher salience.
 */
export function upsertConversationEpisode(
  db: Db,
  e: EpisodeInput,
  now: number,
): { id: number; created: boolean } {
  if (e.conversationId !== null) {
    const existing = cachedStatement(
      db,
      'SELECT id, salience FROM episodes WHERE agent_id = ? AND conversation_id = ? ORDER BY id LIMIT 1',
    ).get(e.agentId, e.conversationId) as { id: number; salience: number } | undefined;
    if (existing) {
      cachedStatement(
        db,
        `UPDATE episodes SET summary = ?, topics = ?, entities = ?, decisions = ?, action_items = ?,
           salience = ?, conversation_at = ?, updated_at = ?
         WHERE id = ? AND agent_id = ?`,
      ).run(
        stripPrivate(e.summary),
        storedList(e.topics),
        storedList(e.entities),
        storedList(e.decisions),
        storedList(e.actionItems),
        Math.max(existing.salience, e.salience),
        e.conversationAt,
        now,
        existing.id,
        e.agentId,
      );
      return { id: existing.id, created: false };
    }
  }
  return { id: insertEpisode(db, e, now), created: true };
}

export function getEpisode(db: Db, agentId: string, id: number): EpisodeRecord | null {
  const r = db.prepare('SELECT * FROM episodes WHERE id = ? AND agent_id = ?').get(id, agentId) as
    EpisodeRow | undefined;
  return r ? toEpisodeRecord(r) : null;
}

export function listEpisodes(
  db: Db,
  o: { agentId: string; limit: number; offset: number; q?: string; conversationId?: string },
): { items: EpisodeRecord[]; total: number } {
  const { rows, total } = selectPage<EpisodeRow>(db, {
    table: 'episodes',
    equal: { agent_id: o.agentId, conversation_id: o.conversationId },
    contains: { words: o.q, columns: ['summary', 'topics', 'entities'] },
    orderBy: 'conversation_at DESC, id DESC',
    limit: o.limit,
    offset: o.offset,
  });
  return { items: rows.map(toEpisodeRecord), total };
}

export interface EpisodeUpdate {
  summary?: string;
  topics?: string[];
  entities?: string[];
  decisions?: string[];
  action_items?: string[];
  salience?: number;
}

export function updateEpisode(
  db: Db,
  agentId: string,
  id: number,
  patch: EpisodeUpdate,
  now: number,
): EpisodeRecord | null {
  const list = (items: string[] | undefined) =>
    items === undefined ? undefined : storedList(items);
  const changed = updateAgentRow(db, 'episodes', agentId, id, {
    summary: patch.summary === undefined ? undefined : stripPrivate(patch.summary),
    topics: list(patch.topics),
    entities: list(patch.entities),
    decisions: list(patch.decisions),
    action_items: list(patch.action_items),
    salience: patch.salience,
    // A salience set by hand restarts the decay clock from now.
    last_decay_at: patch.salience === undefined ? undefined : now,
    updated_at: now,
  });
  return changed ? getEpisode(db, agentId, id) : null;
}
