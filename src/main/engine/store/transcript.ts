import type { Statement } from 'better-sqlite3-multiple-ciphers';
import type { TranscriptRow } from '../../../shared/api.ts';
import { stripPrivate } from '../text/private.ts';
import type { Db } from './db.ts';
import { selectPage } from './page.ts';

// The raw record (DESIGN §3): one row per message, plus one pending signal per recorded
// turn or ingest batch, written in the same transaction (DESIGN §5 step 6) so a signal never
// points at rows that are not there, and rows are never recorded without their signal.
// `<private>` spans are replaced by `[private]` before a row is written (DESIGN §6).

export type TranscriptRole = 'system' | 'user' | 'assistant' | 'tool';

export interface TranscriptMessage {
  role: TranscriptRole;
  content: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
}

export interface RecordTurnInput {
  agentId: string;
  conversationId: string;
  messages: TranscriptMessage[];
  /** Time of the signal row (defaults to Date.now()). */
  now?: number;
  /**
   * Whether the turns await distillation (default). `false` (ingest with skip_extraction)
   * records the batch's signal as already processed, so no distiller ever picks it up.
   */
  distil?: boolean;
}

export interface RecordTurnResult {
  transcriptIds: number[];
  signalId: number;
}

interface TranscriptStatements {
  insertRow: Statement<[string, string, string, string, number]>;
  indexRow: Statement<[number, string]>;
  insertSignal: Statement<[string, string, string, number, number, number, number]>;
}

// Prepared statements are cached per connection: preparing costs more than running them on
// the hot path. A WeakMap keyed by the connection keeps no state beyond its lifetime.
const statementCache = new WeakMap<Db, TranscriptStatements>();

function statements(db: Db): TranscriptStatements {
  let s = statementCache.get(db);
  if (!s) {
    s = {
      insertRow: db.prepare(
        'INSERT INTO transcript (agent_id, conversation_id, role, content, created_at) VALUES (?, ?, ?, ?, ?)',
      ),
      // The FTS5 mirror is written here, not by a trigger (migration 004 says why): every
      // INSERT into transcript goes through writeTurn.
      indexRow: db.prepare('INSERT INTO transcript_stem_fts (rowid, content) VALUES (?, ?)'),
      insertSignal: db.prepare(
        `INSERT INTO pending_signals
           (agent_id, conversation_id, status, attempts, first_transcript_id, last_transcript_id, created_at, updated_at)
         VALUES (?, ?, ?, 0, ?, ?, ?, ?)`,
      ),
    };
    statementCache.set(db, s);
  }
  return s;
}

/** The rows and the signal of one turn, in whatever transaction is open. */
function writeTurn(s: TranscriptStatements, input: RecordTurnInput): RecordTurnResult {
  if (input.messages.length === 0) throw new Error('recordTurn needs at least one message');
  const now = input.now ?? Date.now();
  const transcriptIds = new Array<number>(input.messages.length);
  for (let i = 0; i < input.messages.length; i++) {
    const m = input.messages[i]!;
    // Every transcript row is written here: the one place where private spans are replaced.
    const content = stripPrivate(m.content);
    const info = s.insertRow.run(input.agentId, input.conversationId, m.role, content, m.createdAt);
    const id = Number(info.lastInsertRowid);
    s.indexRow.run(id, content);
    transcriptIds[i] = id;
  }
  const signal = s.insertSignal.run(
    input.agentId,
    input.conversationId,
    input.distil === false ? 'processed' : 'pending',
    transcriptIds[0]!,
    transcriptIds[transcriptIds.length - 1]!,
    now,
    now,
  );
  return { transcriptIds, signalId: Number(signal.lastInsertRowid) };
}

/**
 * Indexes a transcript row put back under an id of its own (a trash restore): its FTS5 mirror
 * row, written here as writeTurn does (migration 004), and one more transcript rewrite, since
 * the row is not appended after the newest one (migration 014: what follows appended rows by
 * id would not see it).
 */
export function indexRestoredTranscriptRow(db: Db, id: number, content: string): void {
  db.prepare('INSERT INTO transcript_stem_fts (rowid, content) VALUES (?, ?)').run(id, content);
  db.prepare('UPDATE transcript_rewrites SET n = n + 1 WHERE id = 1').run();
}

/** Writes the messages and one pending signal in one transaction. */
export function recordTurn(db: Db, input: RecordTurnInput): RecordTurnResult {
  const s = statements(db);
  return db.transaction(() => writeTurn(s, input))();
}

/**
 * Several turns in one transaction, all or none (a failure throws and writes nothing).
 * Cheaper than recordTurn in a loop inside a transaction, whose nested calls each open a
 * savepoint: SQLite journals the pages each savepoint touches, and FTS5 writes its pending
 * terms out at every savepoint (measured: 0.051 vs 0.063 ms per turn in batches of 512).
 */
export function recordTurns(db: Db, inputs: readonly RecordTurnInput[]): RecordTurnResult[] {
  const s = statements(db);
  return db.transaction(() => inputs.map((input) => writeTurn(s, input)))();
}

interface TranscriptDbRow {
  id: number;
  agent_id: string;
  conversation_id: string;
  role: TranscriptRole;
  content: string;
  created_at: number;
}

export function toTranscriptDto(row: TranscriptDbRow): TranscriptRow {
  return {
    id: row.id,
    agent_id: row.agent_id,
    conversation_id: row.conversation_id,
    role: row.role,
    content: row.content,
    created_at: new Date(row.created_at).toISOString(),
  };
}

export interface ListTranscriptInput {
  agentId: string;
  conversationId?: string;
  limit: number;
  offset: number;
  /** Plain substring filter (bound as a LIKE parameter, never spliced). */
  q?: string;
  /** Oldest first (a conversation read top to bottom) or newest first (default). */
  order?: 'asc' | 'desc';
}

/** One agent's transcript rows, newest first by default, with the total for paging. */
export function listTranscript(
  db: Db,
  input: ListTranscriptInput,
): { items: TranscriptRow[]; total: number } {
  const dir = input.order === 'asc' ? 'ASC' : 'DESC';
  const { rows, total } = selectPage<TranscriptDbRow>(db, {
    table: 'transcript',
    equal: { agent_id: input.agentId, conversation_id: input.conversationId },
    contains: { words: input.q, columns: ['content'] },
    orderBy: input.conversationId !== undefined ? `id ${dir}` : `created_at ${dir}, id ${dir}`,
    limit: input.limit,
    offset: input.offset,
  });
  return { items: rows.map(toTranscriptDto), total };
}

export function getTranscriptRow(db: Db, agentId: string, id: number): TranscriptRow | null {
  const row = db
    .prepare('SELECT * FROM transcript WHERE id = ? AND agent_id = ?')
    .get(id, agentId) as TranscriptDbRow | undefined;
  return row ? toTranscriptDto(row) : null;
}

/** Rows by id for one agent (e.g. to index vectors after a recording), in id order. */
export function getTranscriptRows(db: Db, agentId: string, ids: number[]): TranscriptRow[] {
  if (ids.length === 0) return [];
  // json_each first, CROSS JOIN keeps that loop order (https://www.sqlite.org/optoverview.html#crossjoin):
  // one primary-key lookup per id, never a walk of the agent's rows by its index.
  const rows = db
    .prepare(
      `SELECT t.* FROM json_each(?) AS j CROSS JOIN transcript t ON t.id = j.value
       WHERE t.agent_id = ? ORDER BY t.id`,
    )
    .all(JSON.stringify([...new Set(ids)]), agentId) as TranscriptDbRow[];
  return rows.map(toTranscriptDto);
}

/**
 * Deletes a whole conversation of one agent for good, past the trash (the engine deletes
 * through memory/deletion.ts); the benches use it to start each run clean. Returns the number
 * of rows removed.
 */
export function deleteConversation(db: Db, agentId: string, conversationId: string): number {
  return db
    .prepare('DELETE FROM transcript WHERE agent_id = ? AND conversation_id = ?')
    .run(agentId, conversationId).changes;
}
