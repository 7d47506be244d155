// GET /memory/backup: the encrypted backup of Settings → Export. The file holds none of the
// memory in plaintext, opens with the installation's key (and so with its recovery key), holds
// what the database held, and leaves no temporary copy behind.
import Database from 'better-sqlite3-multiple-ciphers';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEngine, type EngineHarness } from './helpers/engine-harness.ts';

const SECRET = 'Xylophone-Quarry-7731';

describe('encrypted backup', () => {
  let h: EngineHarness;
  beforeAll(async () => {
    h = await startEngine({ upstream: null });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('downloads an encrypted copy that opens with the key and holds the memory', async () => {
    const added = await h.api('POST', '/memory/pinned', {
      agent_id: 'bea',
      content: `Bea's locker code is ${SECRET}`,
    });
    expect(added.status).toBe(201);

    const res = await fetch(`${h.url}/memory/backup`, {
      headers: { authorization: `Bearer ${h.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="cairn-backup-/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.length).toBeGreaterThan(4096);
    expect(bytes.subarray(0, 16).toString('latin1')).not.toBe('SQLite format 3\0');
    expect(bytes.includes(Buffer.from(SECRET))).toBe(false);

    const file = join(h.dataDir, 'restored-copy.sqlite');
    writeFileSync(file, bytes);
    try {
      const copy = new Database(file, { readonly: true });
      try {
        copy.pragma(`cipher = 'sqlcipher'`);
        copy.pragma(`key = "x'${h.dbKey}'"`);
        const row = copy
          .prepare('SELECT content FROM pinned_facts WHERE agent_id = ?')
          .get('bea') as { content: string } | undefined;
        expect(row?.content).toContain(SECRET);
      } finally {
        copy.close();
      }
    } finally {
      rmSync(file, { force: true });
    }
    // the temporary copy is gone once the download finished
    await new Promise((r) => setTimeout(r, 50));
    expect(readdirSync(h.dataDir).filter((f) => f.startsWith('.backup-'))).toEqual([]);
  });

  it('needs the token', async () => {
    const res = await fetch(`${h.url}/memory/backup`);
    expect(res.status).toBe(401);
  });
});
