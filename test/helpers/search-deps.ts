// The read path's dependencies on a fresh real database, as the planner and search unit tests
// use them: no vector service (FTS5 alone) and a clock stopped at the test's `now`.
import { fixedClock } from '../../src/main/engine/clock.ts';
import type { SearchDeps } from '../../src/main/engine/memory/search.ts';
import type { Db } from '../../src/main/engine/store/db.ts';
import { databasePerTest } from './database-per-test.ts';

/**
 * Call once at the top of a test file: `const setup = searchDepsPerTest(NOW);`. Each
 * `setup()` opens a fresh migrated database (removed after its test) and deps on it.
 */
export function searchDepsPerTest(now: number): () => { db: Db; deps: SearchDeps } {
  const openDb = databasePerTest();
  return () => {
    const db = openDb();
    return { db, deps: { db, vectors: null, clock: fixedClock(now) } };
  };
}
