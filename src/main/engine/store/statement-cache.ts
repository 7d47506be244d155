import type { Statement } from 'better-sqlite3-multiple-ciphers';
import type { Db } from './db.ts';

// Statements prepared once per connection, for queries that run on every request or turn:
// preparing (parsing and planning the SQL) costs as much as running these small queries
// (profiled under load: a third of a millisecond per memory request went to prepare()).
// Keyed weakly by the connection, so nothing outlives it and no state is shared between
// engines. A few texts vary with their input (a LIKE per search term), so the map is bounded:
// past MAX_STATEMENTS it starts again (the fixed texts are prepared again on their next use).

const cache = new WeakMap<Db, Map<string, Statement>>();
const MAX_STATEMENTS = 500;

/** The connection's prepared statement for `sql`, prepared on first use. */
export function cachedStatement(db: Db, sql: string): Statement {
  let perDb = cache.get(db);
  if (!perDb) {
    perDb = new Map();
    cache.set(db, perDb);
  }
  let stmt = perDb.get(sql);
  if (!stmt) {
    stmt = db.prepare(sql);
    if (perDb.size >= MAX_STATEMENTS) perDb.clear();
    perDb.set(sql, stmt);
  }
  return stmt;
}
