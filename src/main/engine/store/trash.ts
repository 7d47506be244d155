// The trash (migration 009): deleted memory rows, kept whole for `trashDays` so a deletion
// can be undone byte for byte. Rows are copied as JSON of their columns (BLOBs as base64) and
// deleted in the same transaction; FTS entries and vectors go with the row through the
// tables' delete triggers and come back on restore (FTS by trigger or, for the transcript,
// written here as its writer does; vectors are re-embedded by the caller).
import type { Db } from './db.ts';
import { indexRestoredTranscriptRow } from './transcript.ts';

/** The tables a deletion may move to the trash, with the column that identifies a row. */
export const TRASH_TABLES = {
  transcript: 'id',
  episodes: 'id',
  pinned_facts: 'id',
  pending_signals: 'id',
  identity: 'agent_id',
  agent_settings: 'agent_id',
  /** Stored OpenAI Responses (store/response-chain.ts): conversation content, text ids. */
  response_chain: 'id',
} as const;
export type TrashTable = keyof typeof TRASH_TABLES;
/**
 * The tables whose rows have their own integer id (the others are one row per agent, or the
 * Responses chain, keyed by the response's text id).
 */
export type RowTable = Exclude<TrashTable, 'identity' | 'agent_settings' | 'response_chain'>;

/** Restore order: rows that others point at come first. */
const RESTORE_ORDER: readonly TrashTable[] = [
  'transcript',
  'episodes',
  'pinned_facts',
  'pending_signals',
  'identity',
  'agent_settings',
  'response_chain',
];

export type RowKey = number | string;
/** Not a column: the facts that pointed at a trashed episode (restored links). */
const LINKED_FACTS = '$linked_facts';
type Value = string | number | null | { $b64: string };
type RowData = Record<string, Value>;

export interface TrashEntryRecord {
  id: number;
  agentId: string;
  kind: string;
  label: string;
  deletedAt: number;
  itemCount: number;
  /** Rows per table. */
  counts: Partial<Record<TrashTable, number>>;
}

export interface NewTrashEntry {
  agentId: string;
  /** What was deleted: fact, episode, message, conversation, agent, selection, prune, evict. */
  kind: string;
  /** What the user sees in the trash list (a short description, no secret). */
  label: string;
  now: number;
}

export function createTrashEntry(db: Db, entry: NewTrashEntry): number {
  return Number(
    db
      .prepare('INSERT INTO trash (agent_id, kind, label, deleted_at) VALUES (?, ?, ?, ?)')
      .run(entry.agentId, entry.kind, entry.label, entry.now).lastInsertRowid,
  );
}

function encodeRow(row: Record<string, unknown>): RowData {
  const out: RowData = {};
  for (const [k, v] of Object.entries(row)) {
    out[k] = Buffer.isBuffer(v) ? { $b64: v.toString('base64') } : (v as string | number | null);
  }
  return out;
}

function decodeValue(v: Value): unknown {
  return v !== null && typeof v === 'object' ? Buffer.from(v.$b64, 'base64') : v;
}

/**
 * Moves rows of one agent from `table` into trash entry `trashId`, in one transaction: each
 * row is copied, then deleted. Keys that do not exist (or belong to another agent) are
 * skipped. Returns the number of rows moved.
 */
export function moveRowsToTrash(
  db: Db,
  trashId: number,
  agentId: string,
  table: TrashTable,
  keys: readonly RowKey[],
): number {
  if (keys.length === 0) return 0;
  const keyColumn = TRASH_TABLES[table];
  const where = `agent_id = ? AND ${keyColumn} IN (SELECT value FROM json_each(?))`;
  return db.transaction(() => {
    const rows = db
      .prepare(`SELECT * FROM ${table} WHERE ${where}`)
      .all(agentId, JSON.stringify(keys)) as Record<string, unknown>[];
    if (rows.length === 0) return 0;
    const insert = db.prepare(
      'INSERT INTO trash_rows (trash_id, source_table, row_key, data) VALUES (?, ?, ?, ?)',
    );
    const factsOf = db.prepare(
      'SELECT id FROM pinned_facts WHERE agent_id = ? AND source_episode_id = ?',
    );
    for (const row of rows) {
      const data = encodeRow(row);
      if (table === 'episodes') {
        // Facts that stay lose their link to the episode (ON DELETE SET NULL); remember it,
        // so a restore links them again.
        data[LINKED_FACTS] = JSON.stringify(factsOf.pluck().all(agentId, row.id));
      }
      insert.run(trashId, table, String(row[keyColumn]), JSON.stringify(data));
    }
    db.prepare(`DELETE FROM ${table} WHERE ${where}`).run(agentId, JSON.stringify(keys));
    db.prepare('UPDATE trash SET item_count = item_count + ? WHERE id = ?').run(
      rows.length,
      trashId,
    );
    return rows.length;
  })();
}

interface TrashDbRow {
  id: number;
  agent_id: string;
  kind: string;
  label: string;
  deleted_at: number;
  item_count: number;
}

function countsOf(db: Db, trashId: number): Partial<Record<TrashTable, number>> {
  const rows = db
    .prepare(
      'SELECT source_table AS t, count(*) AS n FROM trash_rows WHERE trash_id = ? GROUP BY source_table',
    )
    .all(trashId) as { t: TrashTable; n: number }[];
  return Object.fromEntries(rows.map((r) => [r.t, r.n]));
}

function toRecord(db: Db, r: TrashDbRow): TrashEntryRecord {
  return {
    id: r.id,
    agentId: r.agent_id,
    kind: r.kind,
    label: r.label,
    deletedAt: r.deleted_at,
    itemCount: r.item_count,
    counts: countsOf(db, r.id),
  };
}

export function getTrashEntry(db: Db, id: number): TrashEntryRecord | null {
  const row = db.prepare('SELECT * FROM trash WHERE id = ?').get(id) as TrashDbRow | undefined;
  return row ? toRecord(db, row) : null;
}

export function listTrash(
  db: Db,
  options: { agentId?: string; limit: number; offset: number },
): { items: TrashEntryRecord[]; total: number } {
  const filter = options.agentId === undefined ? '' : 'WHERE agent_id = @agentId';
  const params = { agentId: options.agentId, limit: options.limit, offset: options.offset };
  const rows = db
    .prepare(
      `SELECT * FROM trash ${filter} ORDER BY deleted_at DESC, id DESC LIMIT @limit OFFSET @offset`,
    )
    .all(params) as TrashDbRow[];
  const total = (
    db.prepare(`SELECT count(*) AS n FROM trash ${filter}`).get(params) as { n: number }
  ).n;
  return { items: rows.map((r) => toRecord(db, r)), total };
}

export interface RestoreResult {
  /** Restored row ids per table (the row's own id, or the new one when it was taken). */
  restored: Partial<Record<TrashTable, number[]>>;
}

function columnsOf(db: Db, table: TrashTable): Set<string> {
  return new Set(
    (db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[]).map(
      (c) => c.name,
    ),
  );
}

/** What a restore in steps carries from one step to the next. */
export interface RestoreState {
  /** Old id → new id per table, for rows restored under a new id (references follow). */
  remap: Partial<Record<TrashTable, Map<number, number>>>;
  restored: Partial<Record<TrashTable, number[]>>;
}

export function newRestoreState(): RestoreState {
  return { remap: {}, restored: {} };
}

/**
 * Restores up to `limit` rows of a trash entry, in restore order (rows that others point at
 * first), in one transaction, and takes them out of the entry; the entry goes once it is
 * empty. A row comes back with its own id; if a newer row has taken that id meanwhile it gets
 * a new one, and references to it (a fact's episode, a signal's transcript range) follow.
 * Identity overrides are merged into the agent's current identity. Returns the number of rows
 * restored (0: the entry is done and gone), or null when there is no such entry. A crash
 * between steps leaves every row either back or still in the trash.
 */
export function restoreTrashStep(
  db: Db,
  trashId: number,
  limit: number,
  state: RestoreState,
): number | null {
  return db.transaction(() => {
    if (!db.prepare('SELECT 1 FROM trash WHERE id = ?').get(trashId)) return null;
    for (const table of RESTORE_ORDER) {
      const rows = db
        .prepare(
          'SELECT id, data FROM trash_rows WHERE trash_id = ? AND source_table = ? ORDER BY id LIMIT ?',
        )
        .all(trashId, table, limit) as { id: number; data: string }[];
      if (rows.length === 0) continue;
      restoreRows(
        db,
        table,
        rows.map((r) => JSON.parse(r.data) as RowData),
        state,
      );
      db.prepare('DELETE FROM trash_rows WHERE id IN (SELECT value FROM json_each(?))').run(
        JSON.stringify(rows.map((r) => r.id)),
      );
      return rows.length;
    }
    db.prepare('DELETE FROM trash WHERE id = ?').run(trashId);
    return 0;
  })();
}

/** Restores a whole entry at once (small entries, tests); null when there is no such entry. */
export function restoreTrashEntry(db: Db, trashId: number): RestoreResult | null {
  const state = newRestoreState();
  for (;;) {
    const n = restoreTrashStep(db, trashId, 1_000, state);
    if (n === null) return null;
    if (n === 0) return { restored: state.restored };
  }
}

function restoreRows(db: Db, table: TrashTable, ofTable: RowData[], state: RestoreState): void {
  const { remap, restored } = state;
  if (table === 'identity') {
    for (const data of ofTable) restoreIdentity(db, data);
    restored.identity = [];
    return;
  }
  if (table === 'agent_settings') {
    // Controls set since the deletion win; otherwise the old ones come back.
    const columns = [...columnsOf(db, table)];
    for (const data of ofTable) {
      const cols = columns.filter((c) => c in data);
      db.prepare(
        `INSERT OR IGNORE INTO agent_settings (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
      ).run(...cols.map((c) => decodeValue(data[c]!)));
    }
    restored.agent_settings = [];
    return;
  }
  if (table === 'response_chain') {
    restoreResponses(db, ofTable);
    restored.response_chain = [];
    return;
  }
  const columns = columnsOf(db, table);
  const ids = remap[table] ?? new Map<number, number>();
  const out = restored[table] ?? [];
  for (const data of ofTable) {
    followReferences(table, data, remap);
    const oldId = data.id as number;
    const taken = db.prepare(`SELECT 1 FROM ${table} WHERE id = ?`).get(oldId) !== undefined;
    const cols = Object.keys(data).filter((c) => columns.has(c) && !(taken && c === 'id'));
    const newId = Number(
      db
        .prepare(
          `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
        )
        .run(...cols.map((c) => decodeValue(data[c]!))).lastInsertRowid,
    );
    if (table === 'episodes' && typeof data[LINKED_FACTS] === 'string') {
      db.prepare(
        `UPDATE pinned_facts SET source_episode_id = ?
          WHERE agent_id = ? AND source_episode_id IS NULL
            AND id IN (SELECT value FROM json_each(?))`,
      ).run(newId, data.agent_id, data[LINKED_FACTS]);
    }
    if (table === 'transcript') indexRestoredTranscriptRow(db, newId, data.content as string);
    ids.set(oldId, newId);
    out.push(newId);
  }
  remap[table] = ids;
  restored[table] = out;
}

/**
 * Stored responses come back under their own ids, so a client's `previous_response_id` finds
 * them again. Ids are random (server/formats/responses.ts), so an id already present can only
 * be the same response: the row there is kept.
 */
function restoreResponses(db: Db, rows: readonly RowData[]): void {
  const columns = [...columnsOf(db, 'response_chain')];
  for (const data of rows) {
    const cols = columns.filter((c) => c in data);
    db.prepare(
      `INSERT OR IGNORE INTO response_chain (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
    ).run(...cols.map((c) => decodeValue(data[c]!)));
  }
}

/** Points a restored row at the new ids of rows restored before it. */
function followReferences(
  table: TrashTable,
  data: RowData,
  remap: Partial<Record<TrashTable, Map<number, number>>>,
): void {
  const follow = (column: string, target: TrashTable) => {
    const old = data[column];
    if (typeof old !== 'number') return;
    const next = remap[target]?.get(old);
    if (next !== undefined) data[column] = next;
  };
  if (table === 'pinned_facts') follow('source_episode_id', 'episodes');
  if (table === 'pending_signals') {
    follow('first_transcript_id', 'transcript');
    follow('last_transcript_id', 'transcript');
  }
}

function restoreIdentity(db: Db, data: RowData): void {
  const agentId = data.agent_id as string;
  const current = db
    .prepare('SELECT narrative, overrides FROM identity WHERE agent_id = ?')
    .get(agentId) as { narrative: string; overrides: string } | undefined;
  if (!current) {
    db.prepare(
      'INSERT INTO identity (agent_id, narrative, overrides, updated_at) VALUES (?, ?, ?, ?)',
    ).run(agentId, data.narrative, data.overrides, data.updated_at);
    return;
  }
  const merged = [
    ...new Set([
      ...(JSON.parse(current.overrides) as string[]),
      ...(JSON.parse(data.overrides as string) as string[]),
    ]),
  ];
  db.prepare('UPDATE identity SET narrative = ?, overrides = ? WHERE agent_id = ?').run(
    current.narrative !== '' ? current.narrative : data.narrative,
    JSON.stringify(merged),
    agentId,
  );
}

/** Purges one entry for good (secure_delete overwrites its pages). */
export function purgeTrashEntry(db: Db, trashId: number): boolean {
  return db.prepare('DELETE FROM trash WHERE id = ?').run(trashId).changes > 0;
}

/** Purges entries deleted before `before` (ms); returns how many. */
export function purgeTrashBefore(db: Db, before: number): number {
  return db.prepare('DELETE FROM trash WHERE deleted_at < ?').run(before).changes;
}

// ---------- what a deletion covers ----------

export function transcriptIdsOfConversation(
  db: Db,
  agentId: string,
  conversationId: string,
): number[] {
  return db
    .prepare('SELECT id FROM transcript WHERE agent_id = ? AND conversation_id = ? ORDER BY id')
    .pluck()
    .all(agentId, conversationId) as number[];
}

export function episodeIdsOfConversation(
  db: Db,
  agentId: string,
  conversationId: string,
): number[] {
  return db
    .prepare('SELECT id FROM episodes WHERE agent_id = ? AND conversation_id = ? ORDER BY id')
    .pluck()
    .all(agentId, conversationId) as number[];
}

export function signalIdsOfConversation(db: Db, agentId: string, conversationId: string): number[] {
  return db
    .prepare('SELECT id FROM pending_signals WHERE agent_id = ? AND conversation_id = ?')
    .pluck()
    .all(agentId, conversationId) as number[];
}

/** Facts whose only recorded source is one of these episodes (user-pinned facts stay). */
export function factIdsOnlyFrom(db: Db, agentId: string, episodeIds: readonly number[]): number[] {
  if (episodeIds.length === 0) return [];
  return db
    .prepare(
      `SELECT id FROM pinned_facts
        WHERE agent_id = ? AND pinned_by_user = 0 AND source_count <= 1
          AND source_episode_id IN (SELECT value FROM json_each(?))`,
    )
    .pluck()
    .all(agentId, JSON.stringify(episodeIds)) as number[];
}

/** Every row id of an agent in one table (an agent deletion). */
export function allRowIdsOfAgent(db: Db, agentId: string, table: RowTable): number[] {
  return db
    .prepare(`SELECT id FROM ${table} WHERE agent_id = ? ORDER BY id`)
    .pluck()
    .all(agentId) as number[];
}

const TEXT_OF: Record<'transcript' | 'episode' | 'pinned', string> = {
  transcript: 'SELECT id, agent_id AS agentId, content AS text FROM transcript',
  episode: 'SELECT id, agent_id AS agentId, summary AS text FROM episodes',
  pinned: 'SELECT id, agent_id AS agentId, content AS text FROM pinned_facts',
};

/** The text of restored rows, to embed them again. */
export function rowTextsForIndex(
  db: Db,
  kind: 'transcript' | 'episode' | 'pinned',
  agentId: string,
  ids: readonly number[],
): { id: number; agentId: string; text: string }[] {
  return db
    .prepare(`${TEXT_OF[kind]} WHERE agent_id = ? AND id IN (SELECT value FROM json_each(?))`)
    .all(agentId, JSON.stringify(ids)) as { id: number; agentId: string; text: string }[];
}
