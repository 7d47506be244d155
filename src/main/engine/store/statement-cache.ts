import type { Statement } from 'better-sqlite3-multiple-ciphers';
import type { Db } from './db.ts';

// Statements prepared once per connection, for queries that run on every request or turn:
// preparing (parsing and planning the SQL) costs as much as running these small queries
// (profiled under load: a third of a millisecond per memory request went to prepare()).
// Keyed weakly by the connection, so nothing outlives it and no state is shared between
// engines. Only fixed SQL texts belong here (the map is never pruned).

const cache = new WeakMap<Db, Map<string, Statement>>();

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
    perDb.set(sql, stmt);
  }
  return stmt;
}
