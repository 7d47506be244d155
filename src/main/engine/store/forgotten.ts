import type { Db } from './migrate.ts';

// The wording of forgotten facts (migration 013), per agent: read on the request path (a
// handful of rows, by index) so a forget takes effect on the very next request.

export function addForgotten(
  db: Db,
  agentId: string,
  contents: readonly string[],
  trashId: number | null,
  now: number,
): void {
  const insert = db.prepare(
    'INSERT INTO forgotten (agent_id, content, trash_id, created_at) VALUES (?, ?, ?, ?)',
  );
  for (const content of contents) insert.run(agentId, content, trashId, now);
}

const selectByAgent = new WeakMap<Db, ReturnType<Db['prepare']>>();

export function forgottenWordings(db: Db, agentId: string): string[] {
  let stmt = selectByAgent.get(db);
  if (!stmt) {
    stmt = db.prepare('SELECT content FROM forgotten WHERE agent_id = ? ORDER BY id').pluck();
    selectByAgent.set(db, stmt);
  }
  return stmt.all(agentId) as string[];
}

/**
 * A wording the user made true again (a disabled fact enabled, a fact edited back to it): no
 * longer kept out of the memory block.
 */
export function unforgetWording(db: Db, agentId: string, content: string): number {
  return db
    .prepare('DELETE FROM forgotten WHERE agent_id = ? AND content = ? AND trash_id IS NULL')
    .run(agentId, content).changes;
}

/** A restored fact is remembered again: its wording no longer suppressed. */
export function unforgetTrashEntry(db: Db, trashId: number): number {
  return db.prepare('DELETE FROM forgotten WHERE trash_id = ?').run(trashId).changes;
}

/** The text of facts of an agent (the wording to keep out once they are forgotten). */
export function factContents(db: Db, agentId: string, ids: readonly number[]): string[] {
  if (ids.length === 0) return [];
  return db
    .prepare(
      'SELECT content FROM pinned_facts WHERE agent_id = ? AND id IN (SELECT value FROM json_each(?))',
    )
    .pluck()
    .all(agentId, JSON.stringify(ids)) as string[];
}
