import type { Statement } from 'better-sqlite3-multiple-ciphers';
import { stripPrivate } from '../../text/private.ts';
import type { Db, Migration } from '../migrate.ts';

// `<private>` spans already stored are replaced by `[private]` (DESIGN §6). Before this
// version the transcript kept them verbatim (only what the distiller derived and user edits
// were stripped), so they were searchable, backed up and injected into later prompts. Rows are
// rewritten, never deleted: the user's record stays, without the private text.
//
// - The text columns that can hold message text: transcript, episodes (summary and the JSON
//   list columns), pinned facts (content, tags), identity (narrative, overrides), and the
//   error columns of the diagnostics tables.
// - FTS: the UPDATE triggers of 001/002 move each rewritten row in its mirrors ('delete' of the
//   old text, insert of the new). The mirrors have 'secure-delete' on (001/002), so the old
//   terms leave the segments and the `%_idx` page keys, not just get a delete marker
//   (https://www.sqlite.org/fts5.html#the_secure_delete_configuration_option), and
//   secure_delete (store/open.ts) zeroes the pages they leave behind.
// - Vectors: the embedding of a rewritten row was made from the old text; it is deleted and the
//   backfill embeds the row again (store/vectors.ts, missingVectorRowIds).

/** Rows whose text may hold a tag: every spelling of one contains "private" (LIKE ignores ASCII case). */
const MAY_HOLD_TAG = `LIKE '%private%'`;

type VectorKind = 'transcript' | 'episode' | 'pinned';

/** A JSON list column with each string item scrubbed; null when nothing changed. */
function scrubJsonList(json: string): string | null {
  let items: unknown;
  try {
    items = JSON.parse(json);
  } catch {
    // Not JSON (never written by Cairn): scrub it as text, like any other column.
    const text = stripPrivate(json);
    return text === json ? null : text;
  }
  if (!Array.isArray(items)) return null;
  const scrubbed = items.map((x) => (typeof x === 'string' ? stripPrivate(x) : x));
  return scrubbed.some((x, i) => x !== items[i]) ? JSON.stringify(scrubbed) : null;
}

/** A text column scrubbed; null when nothing changed. */
function scrubText(text: string | null): string | null {
  if (text === null) return null;
  const scrubbed = stripPrivate(text);
  return scrubbed === text ? null : scrubbed;
}

/**
 * Rewrites `columns` of every row of `table` that may hold a private span. `key` is the
 * primary key column. Returns the keys of the rows that changed.
 */
function scrubColumns<K extends number | string>(
  db: Db,
  table: string,
  key: string,
  columns: readonly { name: string; json: boolean }[],
): K[] {
  const where = columns.map((c) => `${c.name} ${MAY_HOLD_TAG}`).join(' OR ');
  const select = db.prepare(
    `SELECT ${key} AS k, ${columns.map((c) => c.name).join(', ')} FROM ${table} WHERE ${where}`,
  );
  const changed: K[] = [];
  const updates = new Map<string, Statement<unknown[]>>();
  for (const row of select.all() as Record<string, unknown>[]) {
    const sets: string[] = [];
    const values: string[] = [];
    for (const c of columns) {
      const value = row[c.name] as string | null;
      const next = c.json && value !== null ? scrubJsonList(value) : scrubText(value);
      if (next === null) continue;
      sets.push(`${c.name} = ?`);
      values.push(next);
    }
    if (sets.length === 0) continue;
    const sql = `UPDATE ${table} SET ${sets.join(', ')} WHERE ${key} = ?`;
    let update = updates.get(sql);
    if (!update) {
      update = db.prepare<unknown[]>(sql);
      updates.set(sql, update);
    }
    update.run(...values, row.k);
    changed.push(row.k as K);
  }
  return changed;
}

/** The rows' embeddings were made from the old text: the backfill makes new ones. */
function dropVectors(db: Db, kind: VectorKind, ids: readonly number[]): void {
  if (ids.length === 0) return;
  db.prepare(
    `DELETE FROM vectors WHERE kind = ? AND row_id IN (SELECT value FROM json_each(?))`,
  ).run(kind, JSON.stringify(ids));
}

export const migration005: Migration = {
  version: 5,
  name: 'scrub_private',
  up(db) {
    const transcript = scrubColumns<number>(db, 'transcript', 'id', [
      { name: 'content', json: false },
    ]);
    dropVectors(db, 'transcript', transcript);
    const episodes = scrubColumns<number>(db, 'episodes', 'id', [
      { name: 'summary', json: false },
      { name: 'topics', json: true },
      { name: 'entities', json: true },
      { name: 'decisions', json: true },
      { name: 'action_items', json: true },
    ]);
    dropVectors(db, 'episode', episodes);
    const facts = scrubColumns<number>(db, 'pinned_facts', 'id', [
      { name: 'content', json: false },
      { name: 'tags', json: true },
    ]);
    dropVectors(db, 'pinned', facts);
    scrubColumns(db, 'identity', 'agent_id', [
      { name: 'narrative', json: false },
      { name: 'overrides', json: true },
    ]);
    scrubColumns(db, 'processing_log', 'id', [{ name: 'error', json: false }]);
    scrubColumns(db, 'pending_signals', 'id', [{ name: 'last_error', json: false }]);
    scrubColumns(db, 'consolidation_runs', 'id', [{ name: 'error', json: false }]);
  },
};
