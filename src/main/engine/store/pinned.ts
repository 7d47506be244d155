// Pinned facts (DESIGN §3): durable facts with salience, usage and provenance. FTS and vector
// rows follow by trigger (001). Every query is scoped by agent_id. Text written here has its
// `<private>` spans replaced first (DESIGN §6).
import { stripPrivate } from '../text/private.ts';
import type { Db } from './db.ts';
import { selectPage } from './page.ts';
import { cachedStatement } from './statement-cache.ts';
import { updateAgentRow } from './update-agent-row.ts';
import { parseJsonList } from './episodes.ts';

export interface PinnedRecord {
  id: number;
  agent_id: string;
  content: string;
  salience: number;
  source_count: number;
  use_count: number;
  last_used: number | null;
  tags: string[];
  status: 'active' | 'disabled';
  pinned_by_user: boolean;
  source_episode_id: number | null;
  last_decay_at: number | null;
  created_at: number;
  updated_at: number;
  /** Typed facts (DESIGN §6); null on free-text facts. "user", "user's sister". */
  subject: string | null;
  relation: string | null;
  object: string | null;
  /** When the fact became true (ms). */
  valid_from: number | null;
  /** When a newer fact replaced it (ms): kept as history, never searched nor injected. */
  superseded_at: number | null;
  /** Provenance: the conversation and the transcript rows the fact was read from. */
  conversation_id: string | null;
  source_ids: number[] | null;
}

interface PinnedRow extends Omit<PinnedRecord, 'tags' | 'pinned_by_user' | 'source_ids'> {
  tags: string;
  pinned_by_user: number;
  source_ids: string | null;
}

function toRecord(r: PinnedRow): PinnedRecord {
  return {
    ...r,
    tags: parseJsonList(r.tags),
    pinned_by_user: r.pinned_by_user === 1,
    source_ids: parseIds(r.source_ids),
  };
}

function parseIds(json: string | null | undefined): number[] | null {
  if (json == null) return null;
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((x): x is number => Number.isInteger(x)) : null;
  } catch {
    return null;
  }
}

export interface PinnedInput {
  agentId: string;
  content: string;
  salience: number;
  tags: string[];
  pinnedByUser: boolean;
  sourceEpisodeId: number | null;
  /** A typed fact (all three, or none). */
  typed?: { subject: string; relation: string; object: string } | null;
  validFrom?: number | null;
  /** Stored already superseded: history that a newer fact had replaced when it arrived. */
  supersededAt?: number | null;
  conversationId?: string | null;
  sourceIds?: readonly number[] | null;
}

export function insertPinned(db: Db, p: PinnedInput, now: number): number {
  return Number(
    db
      .prepare(
        `INSERT INTO pinned_facts (agent_id, content, salience, tags, pinned_by_user,
           source_episode_id, last_decay_at, created_at, updated_at, subject, relation, object,
           valid_from, superseded_at, conversation_id, source_ids)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        p.agentId,
        stripPrivate(p.content),
        p.salience,
        JSON.stringify(p.tags.map(stripPrivate)),
        p.pinnedByUser ? 1 : 0,
        p.sourceEpisodeId,
        now,
        now,
        now,
        p.typed ? stripPrivate(p.typed.subject) : null,
        p.typed?.relation ?? null,
        p.typed ? stripPrivate(p.typed.object) : null,
        p.validFrom ?? null,
        p.supersededAt ?? null,
        p.conversationId ?? null,
        p.sourceIds ? JSON.stringify(p.sourceIds) : null,
      ).lastInsertRowid,
  );
}

/** A typed fact still in force (not superseded) of this subject and relation. */
export interface CurrentTypedFact {
  id: number;
  content: string;
  object: string;
  valid_from: number | null;
  created_at: number;
  status: string;
  source_episode_id: number | null;
}

/** The facts of (subject, relation) not superseded, newest first: what a new one replaces. */
export function currentTypedFacts(
  db: Db,
  agentId: string,
  subject: string,
  relation: string,
): CurrentTypedFact[] {
  return db
    .prepare(
      `SELECT id, content, object, valid_from, created_at, status, source_episode_id
         FROM pinned_facts
        WHERE agent_id = ? AND subject = ? AND relation = ? AND superseded_at IS NULL
        ORDER BY coalesce(valid_from, created_at) DESC, id DESC`,
    )
    .all(agentId, subject, relation) as CurrentTypedFact[];
}

/** Marks facts as superseded at `at` (history: kept, no longer searched or injected). */
export function supersedePinned(
  db: Db,
  agentId: string,
  ids: readonly number[],
  at: number,
  now: number,
): number {
  if (ids.length === 0) return 0;
  return db
    .prepare(
      `UPDATE pinned_facts SET superseded_at = ?, updated_at = ?
        WHERE agent_id = ? AND id IN (SELECT value FROM json_each(?)) AND superseded_at IS NULL`,
    )
    .run(at, now, agentId, JSON.stringify(ids)).changes;
}

/**
 * The agent's facts with any of these relations, active and not superseded, newest first
 * (by the date they became true, then by when they were stored): the read path's lookup for
 * a question mapped to relations ("Where do I live?" → lives_in).
 */
export function factsByRelation(
  db: Db,
  agentId: string,
  relations: readonly string[],
  limit = 50,
): PinnedRecord[] {
  if (relations.length === 0) return [];
  const rows = cachedStatement(
    db,
    `SELECT * FROM pinned_facts
      WHERE agent_id = ? AND relation IN (SELECT value FROM json_each(?))
        AND status = 'active' AND superseded_at IS NULL
      ORDER BY coalesce(valid_from, created_at) DESC, id DESC LIMIT ?`,
  ).all(agentId, JSON.stringify(relations), limit) as PinnedRow[];
  return rows.map(toRecord);
}

/** The relations of the agent's typed facts that are active and in force, each once. */
export function heldRelations(db: Db, agentId: string): string[] {
  return (
    cachedStatement(
      db,
      `SELECT DISTINCT relation FROM pinned_facts
        WHERE agent_id = ? AND relation IS NOT NULL
          AND status = 'active' AND superseded_at IS NULL`,
    ).all(agentId) as { relation: string }[]
  ).map((r) => r.relation);
}

/**
 * The agent's facts about the user themself (typed with subject "user", or free text in the
 * distiller's "User ..." form), active and in force, most salient first: what the read path
 * shows about the user when a question is about their own life.
 */
export function userFacts(db: Db, agentId: string, limit: number): PinnedRecord[] {
  const rows = cachedStatement(
    db,
    `SELECT * FROM pinned_facts
      WHERE agent_id = ? AND status = 'active' AND superseded_at IS NULL
        AND (subject = 'user' OR (subject IS NULL AND content LIKE 'User%'))
      ORDER BY pinned_by_user DESC, salience DESC, coalesce(valid_from, created_at) DESC, id DESC
      LIMIT ?`,
  ).all(agentId, limit) as PinnedRow[];
  return rows.map(toRecord);
}

export function getPinned(db: Db, agentId: string, id: number): PinnedRecord | null {
  const r = db
    .prepare('SELECT * FROM pinned_facts WHERE id = ? AND agent_id = ?')
    .get(id, agentId) as PinnedRow | undefined;
  return r ? toRecord(r) : null;
}

export interface FactText {
  id: number;
  content: string;
  status: string;
  source_episode_id: number | null;
  subject: string | null;
  relation: string | null;
  object: string | null;
}

/**
 * id + content of every fact of the agent (active or disabled) that is not superseded, for
 * deduplication: a statement that repeats a superseded fact ("I moved back to Berlin") is
 * new again, not a repeat of history.
 */
export function listFactTexts(db: Db, agentId: string): FactText[] {
  return cachedStatement(
    db,
    `SELECT id, content, status, source_episode_id, subject, relation, object
       FROM pinned_facts WHERE agent_id = ? AND superseded_at IS NULL`,
  ).all(agentId) as FactText[];
}

/** A duplicate was seen again: one more source, a little more salience (capped at 1). */
export function bumpPinnedSource(
  db: Db,
  agentId: string,
  id: number,
  salienceBump: number,
  now: number,
): void {
  db.prepare(
    `UPDATE pinned_facts SET source_count = source_count + 1,
       salience = min(1.0, salience + ?), updated_at = ?
     WHERE id = ? AND agent_id = ?`,
  ).run(salienceBump, now, id, agentId);
}

const SORTS = {
  salience: 'salience DESC, id DESC',
  created_at: 'created_at DESC, id DESC',
  last_used: 'last_used IS NULL, last_used DESC, id DESC',
  use_count: 'use_count DESC, id DESC',
} as const;

export function listPinned(
  db: Db,
  o: {
    agentId: string;
    status: 'active' | 'disabled' | 'all';
    sort: keyof typeof SORTS;
    limit: number;
    offset: number;
    q?: string;
    /** Include facts a newer one superseded (history); off by default. */
    history?: boolean;
  },
): { items: PinnedRecord[]; total: number } {
  const { rows, total } = selectPage<PinnedRow>(db, {
    table: 'pinned_facts',
    equal: { agent_id: o.agentId, status: o.status === 'all' ? undefined : o.status },
    also: o.history ? [] : ['superseded_at IS NULL'],
    contains: { words: o.q, columns: ['content', 'tags'] },
    orderBy: SORTS[o.sort],
    limit: o.limit,
    offset: o.offset,
  });
  return { items: rows.map(toRecord), total };
}

export interface PinnedUpdate {
  content?: string;
  salience?: number;
  tags?: string[];
  status?: 'active' | 'disabled';
  pinned_by_user?: boolean;
}

export function updatePinned(
  db: Db,
  agentId: string,
  id: number,
  patch: PinnedUpdate,
  now: number,
): PinnedRecord | null {
  const changed = updateAgentRow(db, 'pinned_facts', agentId, id, {
    content: patch.content === undefined ? undefined : stripPrivate(patch.content),
    salience: patch.salience,
    // A salience set by hand restarts the decay clock from now.
    last_decay_at: patch.salience === undefined ? undefined : now,
    tags: patch.tags === undefined ? undefined : JSON.stringify(patch.tags.map(stripPrivate)),
    status: patch.status,
    pinned_by_user: patch.pinned_by_user === undefined ? undefined : Number(patch.pinned_by_user),
    updated_at: now,
  });
  return changed ? getPinned(db, agentId, id) : null;
}

/** Gives a free-text fact its (subject, relation, object): the same statement, now typed. */
export function typePinned(
  db: Db,
  agentId: string,
  id: number,
  t: { subject: string; relation: string; object: string },
  validFrom: number | null,
): void {
  db.prepare(
    `UPDATE pinned_facts SET subject = ?, relation = ?, object = ?,
       valid_from = coalesce(valid_from, ?)
     WHERE id = ? AND agent_id = ? AND relation IS NULL`,
  ).run(t.subject, t.relation, t.object, validFrom, id, agentId);
}
