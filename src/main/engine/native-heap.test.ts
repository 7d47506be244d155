import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tempDatabase } from '../../../test/helpers/temp-db.ts';
import { trimNativeHeap } from './native-heap.ts';

/** The resident anonymous memory of this process in MB (Linux). */
function rssAnonMb(): number {
  const m = /RssAnon:\s+(\d+) kB/u.exec(readFileSync('/proc/self/status', 'utf8'));
  return Number(m?.[1]) / 1024;
}

describe.runIf(process.platform === 'linux')('native heap trim', () => {
  it('gives the pages a connection freed back to the OS', () => {
    const t = tempDatabase();
    try {
      const { db } = t;
      // ~60 MB of rows read into an 80 MB page cache: SQLite mallocs one block per page.
      db.pragma('cache_size = -80000');
      db.exec('CREATE TABLE filler (id INTEGER PRIMARY KEY, body BLOB)');
      const insert = db.prepare('INSERT INTO filler (body) VALUES (randomblob(3000))');
      db.transaction(() => {
        for (let i = 0; i < 20_000; i++) insert.run();
      })();
      db.prepare('SELECT sum(length(body)) FROM filler').get();
      const loaded = rssAnonMb();
      // Pages of a second connection's cache, allocated after the first's: the freed pages
      // below them are not at the top of the heap, where free() alone would return them.
      const other = tempDatabase();
      other.db.exec('CREATE TABLE t (x); INSERT INTO t VALUES (randomblob(100000))');
      db.pragma('shrink_memory');
      const freed = rssAnonMb();
      expect(trimNativeHeap()).toBe(true);
      const trimmed = rssAnonMb();
      other.cleanup();
      // What the cache held is mostly still resident after free(), and gone after the trim.
      expect(loaded - freed).toBeLessThan(30);
      expect(freed - trimmed).toBeGreaterThan(30);
    } finally {
      t.cleanup();
    }
  });
});
