// GET /memory/backup: the encrypted backup of Settings → Export. The file holds none of the
// memory in plaintext, opens with the installation's key (and so with its recovery key),
// holds what the database held, is written off the request thread (so /health answers while
// it is written), one at a time, in a temporary file only its owner can read, and that file
// is gone after a download, an aborted download, two parallel requests and a shutdown.
import Database from 'better-sqlite3-multiple-ciphers';
import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { type ClientRequest, type IncomingMessage, request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEngine, type EngineHarness } from './helpers/engine-harness.ts';
import { fillDatabase } from './helpers/fill-database.ts';
import { tempDir } from './helpers/temp-db.ts';
import { until } from './helpers/until.ts';

const SECRET = 'Xylophone-Quarry-7731';
/** Large enough that the copy and the download take many turns of the event loop. */
const FILL_BYTES = 40 * 1024 * 1024;

/** Every temporary file of a backup (SQLite writes a -journal beside the copy meanwhile). */
function tempFiles(dataDir: string): string[] {
  return readdirSync(dataDir).filter((f) => f.startsWith('.backup-'));
}

/** The temporary copies themselves. */
function copies(dataDir: string): string[] {
  return tempFiles(dataDir).filter((f) => f.endsWith('.sqlite'));
}

/** Starts GET /memory/backup; `response` resolves at the headers, the body is not read. */
function startDownload(h: EngineHarness): {
  req: ClientRequest;
  response: Promise<IncomingMessage>;
} {
  let req!: ClientRequest;
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    req = httpRequest(`${h.url}/memory/backup`, {
      headers: { authorization: `Bearer ${h.token}` },
    });
    req.on('response', resolve);
    req.on('error', reject);
    req.end();
  });
  return { req, response };
}

function openCopy(bytes: Buffer, dir: string, dbKey: string): Database.Database {
  const file = join(dir, `restored-${randomUUID()}.sqlite`);
  writeFileSync(file, bytes);
  const copy = new Database(file, { readonly: true });
  copy.pragma(`cipher = 'sqlcipher'`);
  copy.pragma(`key = "x'${dbKey}'"`);
  return copy;
}

describe('encrypted backup', () => {
  let h: EngineHarness;
  let fillerRows: number;
  const scratch = tempDir('cairn-backup-test-');
  beforeAll(async () => {
    h = await startEngine({ upstream: null });
    fillerRows = fillDatabase(h.services.db, FILL_BYTES);
    const added = await h.api('POST', '/memory/pinned', {
      agent_id: 'bea',
      content: `Bea's locker code is ${SECRET}`,
    });
    expect(added.status).toBe(201);
  });
  afterAll(async () => {
    await h?.stop();
    scratch.cleanup();
  });

  it('downloads an encrypted copy that opens with the key and holds the memory', async () => {
    const res = await fetch(`${h.url}/memory/backup`, {
      headers: { authorization: `Bearer ${h.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="cairn-backup-/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.length).toBe(Number(res.headers.get('content-length')));
    expect(bytes.length).toBeGreaterThan(FILL_BYTES);
    expect(bytes.subarray(0, 16).toString('latin1')).not.toBe('SQLite format 3\0');
    expect(bytes.includes(Buffer.from(SECRET))).toBe(false);

    const copy = openCopy(bytes, scratch.dir, h.dbKey);
    try {
      const row = copy.prepare('SELECT content FROM pinned_facts WHERE agent_id = ?').get('bea') as
        { content: string } | undefined;
      expect(row?.content).toContain(SECRET);
      expect(copy.prepare('SELECT count(*) FROM filler').pluck().get()).toBe(fillerRows);
    } finally {
      copy.close();
    }
    // the temporary copy is removed once the download finished
    await until(() => tempFiles(h.dataDir).length === 0, 'the temporary copy to be removed');
  });

  it('answers /health while the copy is written, keeps the copy 0600 and removes it when the download is aborted', async () => {
    const { req, response } = startDownload(h);

    // The temporary file exists from before the copy starts until the download ends.
    await until(() => copies(h.dataDir).length === 1, 'the temporary copy');
    const [name] = copies(h.dataDir);
    const path = join(h.dataDir, name!);
    expect(statSync(path).mode & 0o777).toBe(0o600);

    const health = await fetch(`${h.url}/health`);
    expect(health.status).toBe(200);
    const sizeWhenHealthAnswered = statSync(path).size;

    const res = await response;
    expect(res.statusCode).toBe(200);
    // /health was answered before the copy was complete: the copy runs on another thread.
    // (Written on this one, it would have been complete before anything else could run.)
    expect(sizeWhenHealthAnswered).toBeLessThan(Number(res.headers['content-length']));

    // Streaming, with a client that stopped reading: the copy stays owner-only.
    res.pause();
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(copies(h.dataDir)).toEqual([name]);

    // The client goes away mid-download: the copy is removed, and the next backup runs.
    req.destroy();
    await until(() => tempFiles(h.dataDir).length === 0, 'the aborted copy to be removed');
    const next = await fetch(`${h.url}/memory/backup`, {
      headers: { authorization: `Bearer ${h.token}` },
    });
    expect(next.status).toBe(200);
    await next.arrayBuffer();
    await until(() => tempFiles(h.dataDir).length === 0, 'the copy to be removed');
  });

  it('removes the copy when the client leaves while it is being written', async () => {
    const { req, response } = startDownload(h);
    response.catch(() => {});
    await until(() => copies(h.dataDir).length === 1, 'the temporary copy');
    req.destroy();
    await until(() => tempFiles(h.dataDir).length === 0, 'the abandoned copy to be removed');
    // The slot is free again.
    const next = await fetch(`${h.url}/memory/backup`, {
      headers: { authorization: `Bearer ${h.token}` },
    });
    expect(next.status).toBe(200);
    await next.arrayBuffer();
    await until(() => tempFiles(h.dataDir).length === 0, 'the copy to be removed');
  });

  it('runs one backup at a time: a second request meanwhile gets 409, and no copy is left', async () => {
    const get = () =>
      fetch(`${h.url}/memory/backup`, { headers: { authorization: `Bearer ${h.token}` } });
    const answers = await Promise.all([get(), get()]);
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409]);
    const refused = answers.find((r) => r.status === 409)!;
    const body = (await refused.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('conflict');
    expect(body.error.message).toMatch(/already being written or downloaded/);
    const ok = answers.find((r) => r.status === 200)!;
    expect((await ok.arrayBuffer()).byteLength).toBeGreaterThan(FILL_BYTES);
    await until(() => tempFiles(h.dataDir).length === 0, 'the copy to be removed');
  });

  it('needs the token', async () => {
    const res = await fetch(`${h.url}/memory/backup`);
    expect(res.status).toBe(401);
    expect(tempFiles(h.dataDir)).toEqual([]);
  });
});

describe('backup temporary files across restarts', () => {
  it('removes a copy in progress at shutdown, and stale copies at start', async () => {
    const dir = tempDir('cairn-backup-stop-');
    try {
      const dbKey = randomBytes(32).toString('hex');
      const h = await startEngine({ upstream: null, dataDir: dir.dir, dbKey });
      try {
        fillDatabase(h.services.db, FILL_BYTES);
        const { response } = startDownload(h);
        response.catch(() => {});
        await until(() => copies(dir.dir).length === 1, 'the temporary copy');
      } finally {
        await h.stop();
      }
      expect(tempFiles(dir.dir)).toEqual([]);

      // A crash mid-backup leaves its copy (and maybe a journal): the next start removes them.
      const stale = join(dir.dir, `.backup-${randomUUID()}.sqlite`);
      writeFileSync(stale, randomBytes(8192));
      writeFileSync(`${stale}-journal`, randomBytes(512));
      const unrelated = join(dir.dir, 'notes.backup-keep.sqlite');
      writeFileSync(unrelated, 'not ours');
      const again = await startEngine({ upstream: null, dataDir: dir.dir, dbKey });
      try {
        expect(tempFiles(dir.dir)).toEqual([]);
        expect(readdirSync(dir.dir)).toContain('notes.backup-keep.sqlite');
      } finally {
        await again.stop();
        rmSync(unrelated, { force: true });
      }
    } finally {
      dir.cleanup();
    }
  });
});
