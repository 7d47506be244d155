import { stripPrivateMessages } from '../response-chain.ts';
import type { Db, Migration } from '../migrate.ts';

// `<private>` spans in the stored Responses chain are replaced by `[private]` (DESIGN §6).
// Before this version `response_chain` (migration 007) kept the chat messages of each response
// verbatim, secrets included; saveResponse now scrubs what it stores, and this rewrites the rows
// stored before, in place: the chain stays continuable, with `[private]` where the secret was.
// The table has no FTS mirror and no vectors; secure_delete (store/open.ts) zeroes the pages the
// old text leaves behind.

function scrubResponseChain(db: Db): number {
  // Every spelling of a tag contains "private" (LIKE ignores ASCII case).
  const rows = db
    .prepare(`SELECT id, messages FROM response_chain WHERE messages LIKE '%private%'`)
    .all() as { id: string; messages: string }[];
  const update = db.prepare('UPDATE response_chain SET messages = ? WHERE id = ?');
  let changed = 0;
  for (const row of rows) {
    const scrubbed = stripPrivateMessages(row.messages);
    if (scrubbed === row.messages) continue;
    update.run(scrubbed, row.id);
    changed++;
  }
  return changed;
}

export const migration012: Migration = {
  version: 12,
  name: 'scrub_private_response_chain',
  up(db) {
    scrubResponseChain(db);
  },
};
