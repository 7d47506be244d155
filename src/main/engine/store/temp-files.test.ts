import { readdirSync, readlinkSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDatabase } from '../../../../test/helpers/temp-db.ts';
import { recordTurn } from './transcript.ts';

// SQLite3 Multiple Ciphers encrypts the database, its journal and WAL, not temporary files
// (statement journals of savepoints, sort spills, temp tables). Those must never reach the
// disk: they would hold plaintext copies of pages.

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

/** Files SQLite opened as temporary files (unlinked right away, still open). */
function openTempFiles(): string[] {
  return readdirSync('/proc/self/fd')
    .map((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return '';
      }
    })
    .filter((target) => /etilqs_/.test(target));
}

describe.runIf(process.platform === 'linux')('temporary files', () => {
  it('keeps the statement journal of a large batch of savepoints in memory', () => {
    const t = tempDatabase();
    cleanups.push(t.cleanup);
    let during: string[] = [];
    t.db.transaction(() => {
      // Each recordTurn is a savepoint inside this transaction; together their journal
      // grows far beyond the 64 KiB SQLite keeps in memory by default.
      for (let i = 0; i < 300; i++) {
        recordTurn(t.db, {
          agentId: 'a',
          conversationId: 'c',
          messages: [
            {
              role: 'user',
              content: `secret ${i} ` + 'words of a long message '.repeat(40),
              createdAt: i,
            },
            { role: 'assistant', content: 'noted', createdAt: i },
          ],
        });
      }
      during = openTempFiles();
    })();
    expect(during).toEqual([]);
    expect(t.db.pragma('temp_store', { simple: true })).toBe(2); // MEMORY
  });

  it('sorts a large ORDER BY without a temporary file', () => {
    const t = tempDatabase();
    cleanups.push(t.cleanup);
    t.db.pragma('cache_size = 10'); // tiny sorter memory: a disk sort would spill at once
    const insert = t.db.prepare(
      `INSERT INTO transcript (agent_id, conversation_id, role, content, created_at) VALUES ('a', 'c', 'user', ?, ?)`,
    );
    t.db.transaction(() => {
      for (let i = 0; i < 3000; i++) insert.run('row text '.repeat(30) + i, i);
    })();
    let during: string[] = [];
    for (const row of t.db
      .prepare('SELECT content FROM transcript ORDER BY substr(content, 200) DESC')
      .iterate()) {
      void row;
      during = openTempFiles();
      break;
    }
    expect(during).toEqual([]);
  });
});
