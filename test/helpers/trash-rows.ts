// Deletes rows the way the engine does, through the trash (store/trash.ts), but without the
// deletion service: the in-memory vector index keeps whatever it held, so a test can check
// what happens when only the database forgot a row.
import type { Db } from '../../src/main/engine/store/db.ts';
import {
  createTrashEntry,
  moveRowsToTrash,
  type RowTable,
} from '../../src/main/engine/store/trash.ts';

/** Moves rows of one agent to a new trash entry; returns how many rows moved. */
export function trashRows(
  db: Db,
  agentId: string,
  table: RowTable,
  ids: readonly number[],
): number {
  const trashId = createTrashEntry(db, { agentId, kind: 'selection', label: 'test', now: 0 });
  return moveRowsToTrash(db, trashId, agentId, table, ids);
}
