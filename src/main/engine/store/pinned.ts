// Pinned facts (DESIGN §3): durable facts with salience, usage and provenance. FTS and vector
// rows follow by trigger (001). Every query is scoped by agent_id. Text written here has its
// `<private>` spans replaced first (DESIGN §6).
import { stripPrivate } from '../memory/private.ts';
import type { Db } from './migrate.ts';
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
}

interface PinnedRow extends Omit<PinnedRecord, 'tags' | 'pinned_by_user'> {
  tags: string;
  pinned_by_user: number;
}

function toRecord(r: PinnedRow): PinnedRecord {
  return { ...r, tags: parseJsonList(r.tags), pinned_by_user: r.pinned_by_user === 1 };
}

export interface PinnedInput {
  agentId: string;
  content: string;
  salience: number;
  tags: string[];
  pinnedByUser: boolean;
  sourceEpisodeId: number | null;
}

export function insertPinned(db: Db, p: PinnedInput, now: number): number {
  return Number(
    db
      .prepare(
        `INSERT INTO pinned_facts (agent_id, content, salience, tags, pinned_by_user,
           source_episode_id, last_decay_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
      ).lastInsertRowid,
  );
}

export function getPinned(db: Db, agentId: string, id: number): PinnedRecord | null {
  const r = db
    .prepare('SELECT * FROM pinned_facts WHERE id = ? AND agent_id = ?')
    .get(id, agentId) as PinnedRow | undefined;
  return r ? toRecord(r) : null;
}

/** id + content of every fact of the agent (active or disabled), for deduplication. */
export function listFactTexts(
  db: Db,
  agentId: string,
): { id: number; content: string; status: string; source_episode_id: number | null }[] {
  return db
    .prepare('SELECT id, content, status, source_episode_id FROM pinned_facts WHERE agent_id = ?')
    .all(agentId) as {
    id: number;
    content: string;
    status: string;
    source_episode_id: number | null;
  }[];
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

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => '\\' + c);
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
  },
): { items: PinnedRecord[]; total: number } {
  const where = ['agent_id = ?'];
  const params: (string | number)[] = [o.agentId];
  if (o.status !== 'all') {
    where.push('status = ?');
    params.push(o.status);
  }
  if (o.q !== undefined && o.q.trim() !== '') {
    const like = '%' + escapeLike(o.q.trim()) + '%';
    where.push("(content LIKE ? ESCAPE '\\' OR tags LIKE ? ESCAPE '\\')");
    params.push(like, like);
  }
  const clause = where.join(' AND ');
  const rows = db
    .prepare(
      `SELECT * FROM pinned_facts WHERE ${clause} ORDER BY ${SORTS[o.sort]} LIMIT ? OFFSET ?`,
    )
    .all(...params, o.limit, o.offset) as PinnedRow[];
  const total = (
    db.prepare(`SELECT count(*) AS n FROM pinned_facts WHERE ${clause}`).get(...params) as {
      n: number;
    }
  ).n;
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
  const sets: string[] = [];
  const params: (string | number)[] = [];
  if (patch.content !== undefined) {
    sets.push('content = ?');
    params.push(stripPrivate(patch.content));
  }
  if (patch.salience !== undefined) {
    sets.push('salience = ?', 'last_decay_at = ?');
    params.push(patch.salience, now);
  }
  if (patch.tags !== undefined) {
    sets.push('tags = ?');
    params.push(JSON.stringify(patch.tags.map(stripPrivate)));
  }
  if (patch.status !== undefined) {
    sets.push('status = ?');
    params.push(patch.status);
  }
  if (patch.pinned_by_user !== undefined) {
    sets.push('pinned_by_user = ?');
    params.push(patch.pinned_by_user ? 1 : 0);
  }
  sets.push('updated_at = ?');
  params.push(now);
  const changed = db
    .prepare(`UPDATE pinned_facts SET ${sets.join(', ')} WHERE id = ? AND agent_id = ?`)
    .run(...params, id, agentId).changes;
  return changed > 0 ? getPinned(db, agentId, id) : null;
}

/** Deletes the fact (its FTS entry and vector go with it, by trigger). */
export function deletePinned(db: Db, agentId: string, id: number): boolean {
  return (
    db.prepare('DELETE FROM pinned_facts WHERE id = ? AND agent_id = ?').run(id, agentId).changes >
    0
  );
}
