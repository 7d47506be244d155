import type { Statement } from 'better-sqlite3-multiple-ciphers';
import { decodeVector, encodeVector } from './vector-codec.ts';

/** What a stored vector embeds: a transcript row, an episode summary or a pinned fact. */
export type VectorKind = 'transcript' | 'episode' | 'pinned';
import type { Db } from './db.ts';
import { equalityConditions, whereClause } from './equality-conditions.ts';

// The `vectors` table (migration 001): one embedding per (kind, row id), stored as a
// little-endian float32 BLOB inside the encrypted database, tagged with the model that made
// it. Vectors of another model are ignored by loadVectors and count as missing for
// missingVectorRowIds, so changing the model re-embeds everything over time. Deleting a
// source row deletes its vector (triggers in migration 001).

/** Source table and text column embedded for each kind. Constants, never user input. */
const SOURCES = {
  transcript: { table: 'transcript', text: 'content' },
  episode: { table: 'episodes', text: 'summary' },
  pinned: { table: 'pinned_facts', text: 'content' },
} as const satisfies Record<VectorKind, { table: string; text: string }>;

export interface VectorRecord {
  kind: VectorKind;
  rowId: number;
  agentId: string;
  model: string;
  embedding: Float32Array;
  /** Milliseconds since the epoch. */
  createdAt: number;
}

export interface StoredVector extends VectorRecord {
  dims: number;
}

/** A source row that still needs an embedding. */
export interface TextRow {
  id: number;
  agentId: string;
  text: string;
}

interface VectorRowDb {
  kind: VectorKind;
  row_id: number;
  agent_id: string;
  model: string;
  dims: number;
  embedding: Buffer;
  created_at: number;
}

type UpsertParams = [VectorKind, string, number, Buffer, number, number, string];

interface VectorStatements {
  upsert: Record<VectorKind, Statement<UpsertParams>>;
  missing: Record<
    VectorKind,
    Statement<[number, string | null, string | null, VectorKind, string, string, number], TextRow>
  >;
  remove: Statement<[VectorKind, number]>;
  removeAgent: Statement<[string]>;
}

const statementCache = new WeakMap<Db, VectorStatements>();

function perKind<T>(make: (kind: VectorKind) => T): Record<VectorKind, T> {
  return { transcript: make('transcript'), episode: make('episode'), pinned: make('pinned') };
}

function statements(db: Db): VectorStatements {
  let s = statementCache.get(db);
  if (!s) {
    s = {
      // Inserts only while the source row exists for that agent: an embedding computed for a
      // row deleted in the meantime must not come back as an orphan.
      upsert: perKind((kind) =>
        db.prepare<UpsertParams>(
          `INSERT INTO vectors (kind, row_id, agent_id, model, dims, embedding, created_at)
           SELECT ?, s.id, s.agent_id, ?, ?, ?, ? FROM ${SOURCES[kind].table} s
           WHERE s.id = ? AND s.agent_id = ?
           ON CONFLICT (kind, row_id) DO UPDATE SET
             agent_id = excluded.agent_id, model = excluded.model, dims = excluded.dims,
             embedding = excluded.embedding, created_at = excluded.created_at`,
        ),
      ),
      missing: perKind((kind) => {
        const { table, text } = SOURCES[kind];
        return db.prepare<
          [number, string | null, string | null, VectorKind, string, string, number],
          TextRow
        >(
          `SELECT s.id AS id, s.agent_id AS agentId, s.${text} AS text FROM ${table} s
           WHERE s.id > ? AND (? IS NULL OR s.agent_id = ?) AND length(trim(s.${text})) > 0
             AND NOT EXISTS (SELECT 1 FROM vectors v WHERE v.kind = ? AND v.row_id = s.id AND v.model IN (?, ?))
           ORDER BY s.id LIMIT ?`,
        );
      }),
      remove: db.prepare('DELETE FROM vectors WHERE kind = ? AND row_id = ?'),
      removeAgent: db.prepare('DELETE FROM vectors WHERE agent_id = ?'),
    };
    statementCache.set(db, s);
  }
  return s;
}

/**
 * Stores (or replaces) embeddings in one transaction. A record whose source row no longer
 * exists (or belongs to another agent) is skipped. Returns the records that were stored.
 */
export function upsertVectors(db: Db, rows: readonly VectorRecord[]): VectorRecord[] {
  if (rows.length === 0) return [];
  const { upsert } = statements(db);
  const stored: VectorRecord[] = [];
  db.transaction(() => {
    for (const r of rows) {
      const info = upsert[r.kind].run(
        r.kind,
        r.model,
        r.embedding.length,
        encodeVector(r.embedding),
        r.createdAt,
        r.rowId,
        r.agentId,
      );
      if (info.changes > 0) stored.push(r);
    }
  })();
  return stored;
}

/** Deletes the vector of one row; false when there was none. */
export function deleteVector(db: Db, kind: VectorKind, rowId: number): boolean {
  return statements(db).remove.run(kind, rowId).changes > 0;
}

/** Deletes every vector of an agent; returns how many. */
export function deleteAgentVectors(db: Db, agentId: string): number {
  return statements(db).removeAgent.run(agentId).changes;
}

export interface VectorFilter {
  model: string;
  agentId?: string;
  kind?: VectorKind;
}

function filterSql(filter: Partial<VectorFilter>): { where: string; params: string[] } {
  const { conditions, params } = equalityConditions({
    model: filter.model,
    agent_id: filter.agentId,
    kind: filter.kind,
  });
  return { where: whereClause(conditions), params };
}

/** Position after which the next page starts: vectors are ordered by (kind, row id). */
export interface VectorCursor {
  kind: string;
  rowId: number;
}

/**
 * One page of stored vectors of a model (optionally one agent / kind), in (kind, row id)
 * order after `after`. BLOBs whose length does not match their `dims` are skipped. Each page
 * is read in full, so the caller may write to the database between pages.
 */
export function loadVectorsPage(
  db: Db,
  filter: VectorFilter,
  after: VectorCursor | null,
  limit: number,
): StoredVector[] {
  const { where, params } = filterSql(filter);
  const rows = db
    .prepare<(string | number)[], VectorRowDb>(
      `SELECT kind, row_id, agent_id, model, dims, embedding, created_at FROM vectors
       ${where} ${where ? 'AND' : 'WHERE'} length(embedding) = dims * 4 AND (kind, row_id) > (?, ?)
       ORDER BY kind, row_id LIMIT ?`,
    )
    .all(...params, after?.kind ?? '', after?.rowId ?? 0, Math.max(1, Math.floor(limit)));
  return rows.map((row) => ({
    kind: row.kind,
    rowId: row.row_id,
    agentId: row.agent_id,
    model: row.model,
    dims: row.dims,
    embedding: decodeVector(row.embedding, row.dims),
    createdAt: row.created_at,
  }));
}

/** All stored vectors of a model (optionally one agent / kind), read page by page. */
export function* loadVectors(
  db: Db,
  filter: VectorFilter,
  pageSize = 2000,
): Generator<StoredVector> {
  let after: VectorCursor | null = null;
  for (;;) {
    const page = loadVectorsPage(db, filter, after, pageSize);
    yield* page;
    const last = page.at(-1);
    if (!last || page.length < pageSize) return;
    after = { kind: last.kind, rowId: last.rowId };
  }
}

/** Number of stored vectors matching the filter (every model when `model` is omitted). */
export function countVectors(db: Db, filter: Partial<VectorFilter> = {}): number {
  const { where, params } = filterSql(filter);
  const row = db
    .prepare<string[], { n: number }>(`SELECT count(*) AS n FROM vectors ${where}`)
    .get(...params);
  return row?.n ?? 0;
}

/**
 * Source rows of `kind` (optionally of one agent) with non-blank text and no vector from
 * `model`, in id order, starting after `afterId`. Rows embedded by another model count as
 * missing, except by `alsoModel` when given (the static word vectors must not replace the
 * sentence model's vectors). Page with `afterId` = the last id returned.
 */
export function missingVectorRowIds(
  db: Db,
  kind: VectorKind,
  agentId: string | null | undefined,
  model: string,
  limit: number,
  afterId = 0,
  alsoModel?: string,
): TextRow[] {
  const agent = agentId ?? null;
  return statements(db).missing[kind].all(
    afterId,
    agent,
    agent,
    kind,
    model,
    alsoModel ?? model,
    Math.max(0, Math.floor(limit)),
  );
}
