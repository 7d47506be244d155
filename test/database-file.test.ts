// openDataDirDatabase on real files: the invariant is that a database that cannot be opened
// is never deleted or overwritten.
import Database from 'better-sqlite3-multiple-ciphers';
import { createHash, randomBytes } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '../src/shared/errors.ts';
import { silentLogger } from '../src/main/engine/logger.ts';
import { latestVersion, migrate, schemaVersion } from '../src/main/engine/store/migrate.ts';
import { recordTurn } from '../src/main/engine/store/transcript.ts';
import {
  inspectDatabaseFile,
  keyOpensDatabase,
  openDataDirDatabase,
  rekeyDatabase,
} from '../src/main/engine/store/database-file.ts';
import { tempDir } from './helpers/temp-db.ts';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function dataDir(): string {
  const t = tempDir('cairn-dbfile-');
  cleanups.push(t.cleanup);
  return join(t.dir, 'data');
}

const MARKER = 'the-secret-marker-phrase-7f3a';

/** name → sha256 of every file under dir (recursively). */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const p = join(e.parentPath, e.name);
    out[p.slice(dir.length + 1)] = createHash('sha256').update(readFileSync(p)).digest('hex');
  }
  return out;
}

function open(dir: string, key: Buffer) {
  return openDataDirDatabase({ dataDir: dir, key, logger: silentLogger });
}

function insertTurn(db: Database.Database, content: string): void {
  recordTurn(db, {
    agentId: 'a1',
    conversationId: 'c1',
    messages: [{ role: 'user', content, createdAt: 1 }],
  });
}

function transcriptContents(db: Database.Database): string[] {
  return (
    db.prepare('SELECT content FROM transcript ORDER BY id').all() as { content: string }[]
  ).map((r) => r.content);
}

/**
 * A data folder whose database has un-checkpointed data in its WAL, as after a crash: the
 * files of a live connection are copied while it is still open.
 */
function crashedDataDir(key: Buffer): string {
  const live = dataDir();
  const { db, path } = open(live, key);
  insertTurn(db, MARKER);
  const dir = dataDir();
  mkdirSync(dir, { recursive: true });
  for (const suffix of ['', '-wal', '-shm']) {
    copyFileSync(path + suffix, join(dir, 'memory.sqlite' + suffix));
  }
  db.close();
  return dir;
}

describe('openDataDirDatabase', () => {
  it('creates a private data folder and an encrypted, migrated database', () => {
    const dir = dataDir();
    const key = randomBytes(32);
    const { db, path, quarantined, migratedFromPlaintext } = open(dir, key);
    insertTurn(db, MARKER);
    expect(schemaVersion(db)).toBe(latestVersion);
    db.close();
    expect(quarantined).toBeNull();
    expect(migratedFromPlaintext).toBe(false);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    if (process.platform !== 'win32') expect(statSync(path).mode & 0o777).toBe(0o600);
    const bytes = readFileSync(path);
    expect(bytes.includes(MARKER)).toBe(false);
    expect(bytes.subarray(0, 15).toString('latin1')).not.toBe('SQLite format 3');
    expect(inspectDatabaseFile(path)).toBe('encrypted');
    expect(keyOpensDatabase(path, key)).toBe(true);
    expect(keyOpensDatabase(path, randomBytes(32))).toBe(false);
  });

  it('a wrong key gives a clear error and leaves every file byte-identical, WAL included', () => {
    const key = randomBytes(32);
    const dir = crashedDataDir(key);
    const before = snapshot(dir);
    expect(Object.keys(before).sort()).toEqual([
      'memory.sqlite',
      'memory.sqlite-shm',
      'memory.sqlite-wal',
    ]);
    expect(statSync(join(dir, 'memory.sqlite-wal')).size).toBeGreaterThan(0);

    let caught: unknown;
    try {
      open(dir, randomBytes(32));
    } catch (err) {
      caught = err;
    }
    expect((caught as { code?: string }).code).toBe(ErrorCode.WrongKey);
    expect((caught as Error).message).toMatch(/different key.*left untouched.*CAIRN_RECOVERY_KEY/s);
    expect(snapshot(dir)).toEqual(before);

    // The right key still reads what was only in the WAL.
    const { db, quarantined } = open(dir, key);
    expect(transcriptContents(db)).toEqual([MARKER]);
    expect(quarantined).toBeNull();
    db.close();
  });

  it('encrypts a plaintext database in place: data kept, no plaintext left, backup removed', () => {
    const dir = dataDir();
    mkdirSync(dir, { recursive: true });
    const path = join(dir, 'memory.sqlite');
    const plain = new Database(path);
    plain.pragma('journal_mode = WAL');
    migrate(plain);
    for (let i = 0; i < 200; i++) insertTurn(plain, `${MARKER} turn ${i}`);
    // Leave part of it in the WAL, as an older install that crashed would.
    const crash = join(dataDir(), 'snapshot');
    mkdirSync(crash, { recursive: true });
    for (const s of ['', '-wal', '-shm']) copyFileSync(path + s, join(crash, 'memory.sqlite' + s));
    plain.close();
    const source = join(crash, 'memory.sqlite');
    expect(readFileSync(source + '-wal').includes(MARKER)).toBe(true);
    expect(inspectDatabaseFile(source)).toBe('plaintext');

    const key = randomBytes(32);
    const { db, quarantined, migratedFromPlaintext } = open(crash, key);
    expect(migratedFromPlaintext).toBe(true);
    expect(quarantined).toBeNull();
    expect(transcriptContents(db)).toHaveLength(200);
    expect(transcriptContents(db)[199]).toBe(`${MARKER} turn 199`);
    expect(schemaVersion(db)).toBe(latestVersion);
    const fts = db
      .prepare(`SELECT count(*) AS n FROM transcript_stem_fts WHERE transcript_stem_fts MATCH ?`)
      .get('"turn 199"') as { n: number };
    expect(fts.n).toBe(1);
    db.close();

    const files = readdirSync(crash).sort();
    expect(files.filter((f) => f.includes('backup') || f.includes('encrypting'))).toEqual([]);
    for (const f of files) {
      const bytes = readFileSync(join(crash, f));
      expect(bytes.includes(MARKER), `${f} holds plaintext`).toBe(false);
      expect(bytes.includes('SQLite format 3'), `${f} has a plaintext header`).toBe(false);
    }
    expect(inspectDatabaseFile(source)).toBe('encrypted');
    expect(keyOpensDatabase(source, key)).toBe(true);
    // Opening again is a plain open now.
    const again = open(crash, key);
    expect(again.migratedFromPlaintext).toBe(false);
    again.db.close();
  });

  it('an interrupted migration: a stale plaintext backup is kept in quarantine, not overwritten', () => {
    const dir = dataDir();
    mkdirSync(dir, { recursive: true });
    const path = join(dir, 'memory.sqlite');
    const plain = new Database(path);
    migrate(plain);
    insertTurn(plain, MARKER);
    plain.close();
    writeFileSync(path + '.plaintext-backup', 'an older backup');
    const { db } = open(dir, randomBytes(32));
    expect(transcriptContents(db)).toEqual([MARKER]);
    db.close();
    expect(existsSync(path + '.plaintext-backup')).toBe(false);
    const q = readdirSync(join(dir, 'quarantine'));
    expect(q).toHaveLength(1);
    expect(readFileSync(join(dir, 'quarantine', q[0]!), 'utf8')).toBe('an older backup');
  });

  it('a migration interrupted after its rename is finished on the next start', () => {
    const key = randomBytes(32);
    const dir = dataDir();
    const { db, path } = open(dir, key);
    insertTurn(db, MARKER);
    db.close();
    // The state right after step 4: encrypted file in place, plaintext WAL and backup beside.
    const plainDir = join(dataDir(), 'plain');
    mkdirSync(plainDir, { recursive: true });
    const plain = new Database(join(plainDir, 'p.sqlite'));
    plain.pragma('journal_mode = WAL');
    plain.exec(`CREATE TABLE t (x); INSERT INTO t VALUES ('old plaintext')`);
    copyFileSync(join(plainDir, 'p.sqlite'), path + '.plaintext-backup');
    copyFileSync(join(plainDir, 'p.sqlite-wal'), path + '-wal');
    plain.close();

    const before = snapshot(dir);
    expect(() => open(dir, randomBytes(32))).toThrow(/different key/);
    expect(snapshot(dir)).toEqual(before);

    const reopened = open(dir, key);
    expect(transcriptContents(reopened.db)).toEqual([MARKER]);
    reopened.db.close();
    expect(existsSync(path + '.plaintext-backup')).toBe(false);
    expect(readdirSync(dir).some((f) => f.includes('backup'))).toBe(false);
  });

  it.each([
    ['a text file', () => Buffer.from('this is not a database\n'.repeat(300))],
    ['a zero-filled file', () => Buffer.alloc(8192)],
    ['a damaged plaintext SQLite file', () => corruptPlaintext()],
  ])('moves %s to quarantine (never deletes it) and starts fresh', (_what, make) => {
    const dir = dataDir();
    mkdirSync(dir, { recursive: true });
    const path = join(dir, 'memory.sqlite');
    const garbage = make();
    writeFileSync(path, garbage);
    writeFileSync(path + '-wal', 'wal bytes');
    const key = randomBytes(32);
    const { db, quarantined } = open(dir, key);
    expect(quarantined).not.toBeNull();
    expect(quarantined!).toMatch(/quarantine[/\\][0-9TZ-]+-memory\.sqlite$/);
    expect(readFileSync(quarantined!).equals(garbage)).toBe(true);
    expect(readFileSync(quarantined! + '-wal', 'utf8')).toBe('wal bytes');
    insertTurn(db, 'fresh');
    expect(transcriptContents(db)).toEqual(['fresh']);
    db.close();
    expect(keyOpensDatabase(path, key)).toBe(true);

    // A second bad file never overwrites the first one in quarantine.
    const { db: db2 } = open(dir, key);
    db2.close();
    writeFileSync(path, garbage);
    rmSide(path);
    const second = open(dir, key);
    second.db.close();
    expect(second.quarantined).not.toBe(quarantined);
    expect(readFileSync(quarantined!).equals(garbage)).toBe(true);
    expect(readdirSync(join(dir, 'quarantine')).filter((f) => f.endsWith('.sqlite'))).toHaveLength(
      2,
    );
  });

  it('keeps a -wal found without its database instead of letting SQLite delete it', () => {
    const key = randomBytes(32);
    const crashed = crashedDataDir(key);
    const wal = readFileSync(join(crashed, 'memory.sqlite-wal'));
    const dir = dataDir();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'memory.sqlite-wal'), wal);
    const { db, quarantined } = open(dir, key);
    db.close();
    expect(quarantined).not.toBeNull();
    expect(readFileSync(quarantined! + '-wal').equals(wal)).toBe(true);
  });

  it('random bytes (could be SQLCipher with another key) are never quarantined', () => {
    const dir = dataDir();
    mkdirSync(dir, { recursive: true });
    const path = join(dir, 'memory.sqlite');
    writeFileSync(path, randomBytes(16384));
    const before = snapshot(dir);
    expect(() => open(dir, randomBytes(32))).toThrow(/different key/);
    expect(snapshot(dir)).toEqual(before);
    expect(existsSync(join(dir, 'quarantine'))).toBe(false);
  });

  it('quarantines an encrypted database damaged beyond page 1 when the key is right', () => {
    const dir = dataDir();
    const key = randomBytes(32);
    const { db, path } = open(dir, key);
    db.close();
    const bytes = readFileSync(path);
    const pages = bytes.length / 4096;
    for (let p = 1; p < pages; p++) randomBytes(64).copy(bytes, p * 4096 + 100);
    writeFileSync(path, bytes);
    const opened = open(dir, key);
    expect(opened.quarantined).not.toBeNull();
    expect(readFileSync(opened.quarantined!).equals(bytes)).toBe(true);
    expect(schemaVersion(opened.db)).toBe(latestVersion);
    opened.db.close();
  });
});

describe('rekeyDatabase', () => {
  it('re-encrypts with the new key; the old key no longer opens it', () => {
    const dir = dataDir();
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const { db, path } = open(dir, oldKey);
    insertTurn(db, MARKER);
    rekeyDatabase(db, newKey);
    db.close();
    expect(keyOpensDatabase(path, oldKey)).toBe(false);
    expect(() => open(dir, oldKey)).toThrow(/different key/);
    const reopened = open(dir, newKey);
    expect(transcriptContents(reopened.db)).toEqual([MARKER]);
    reopened.db.close();
  });
});

function corruptPlaintext(): Buffer {
  const t = tempDir('cairn-plain-');
  cleanups.push(t.cleanup);
  const p = join(t.dir, 'x.sqlite');
  const db = new Database(p);
  migrate(db);
  db.close();
  const bytes = readFileSync(p);
  // Keep the header, scribble over every other page.
  for (let off = 4096; off < bytes.length; off += 4096) bytes.fill(0xa5, off, off + 4096);
  bytes.fill(0xa5, 100, 4096);
  return bytes;
}

function rmSide(path: string): void {
  for (const s of ['-wal', '-shm']) if (existsSync(path + s)) writeFileSync(path + s, '');
}
