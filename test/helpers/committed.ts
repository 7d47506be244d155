import type { Db } from '../../src/main/engine/store/db.ts';
import { groupCommit } from '../../src/main/engine/store/group-commit.ts';

/**
 * Commits what waits to share the connection's next commit (new rows' vectors, see
 * store/group-commit.ts), then lets the writers' promises settle.
 */
export async function committed(db: Db): Promise<void> {
  groupCommit(db).flush();
  await new Promise((resolve) => setImmediate(resolve));
}
