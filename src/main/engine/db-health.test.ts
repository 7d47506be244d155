import { randomBytes } from 'node:crypto';
import { closeSync, openSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDatabase } from '../../../test/helpers/temp-db.ts';
import { fillDatabase } from '../../../test/helpers/fill-database.ts';
import { ErrorCode } from '../../shared/errors.ts';
import { classifyStorageError, createDbHealth, type DbHealthOptions } from './db-health.ts';
import { CairnError } from './errors.ts';
import { createLogger } from './logger.ts';
import { dataVersion, quickCheck } from './store/integrity.ts';
import type { Db } from './store/db.ts';
import { openDatabase } from './store/open.ts';

const logger = createLogger({ level: 'silent' });
const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

/** A real encrypted database, a second connection that only watches, and the error of a full one. */
function setup() {
  const t = tempDatabase();
  cleanups.push(t.cleanup);
  const watch = openDatabase({ path: t.path, key: t.key, readonly: true, migrate: false });
  cleanups.push(() => watch.close());
  return { ...t, watch };
}

/**
 * The database of `t` filled past a few pages and written to its file, both connections
 * closed, a page damaged, then opened again (closed after the test).
 */
function reopenDamaged(t: ReturnType<typeof setup>): Db {
  fillDatabase(t.db, 2 * 1024 * 1024);
  t.db.pragma('wal_checkpoint(TRUNCATE)');
  t.watch.close();
  t.db.close();
  damage(t.path);
  const db = openDatabase({ path: t.path, key: t.key, migrate: false });
  cleanups.push(() => db.close());
  return db;
}

function catchError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected an error');
}

/** SQLITE_FULL from SQLite itself: the file may not grow past its current pages. */
function diskFullError(db: Db): unknown {
  db.exec('CREATE TABLE IF NOT EXISTS big (b BLOB)');
  const pages = db.pragma('page_count', { simple: true }) as number;
  db.pragma(`max_page_count = ${pages}`);
  try {
    return catchError(() => db.prepare('INSERT INTO big VALUES (randomblob(65536))').run());
  } finally {
    db.pragma('max_page_count = 4294967294');
  }
}

/** Random bytes over pages past the first fifth of a closed database file. */
function damage(path: string): void {
  const size = statSync(path).size;
  const fd = openSync(path, 'r+');
  try {
    for (let offset = Math.floor(size / 5 / 4096) * 4096; offset < size; offset += 8192) {
      writeSync(fd, randomBytes(4096), 0, 4096, offset);
    }
  } finally {
    closeSync(fd);
  }
}

describe('classifyStorageError', () => {
  it('tells a full disk from SQLite and from Node', () => {
    const { db } = setup();
    expect(classifyStorageError(diskFullError(db))).toBe('disk_full');
    const enospc =
      process.platform === 'linux' ? catchError(() => writeFileSync('/dev/full', 'x')) : null;
    if (enospc) expect(classifyStorageError(enospc)).toBe('disk_full');
  });

  it('tells a damaged page, also as the cause of another error', () => {
    const t = setup();
    const db = reopenDamaged(t);
    const corrupt = catchError(() => db.prepare('SELECT sum(length(b)) FROM filler').get());
    expect((corrupt as { code: string }).code).toMatch(/^SQLITE_CORRUPT/);
    expect(classifyStorageError(corrupt)).toBe('damaged');
    const wrapped = new CairnError(ErrorCode.Internal, 'The backup could not be written.', {
      cause: corrupt,
    });
    expect(classifyStorageError(wrapped)).toBe('damaged');
  });

  it('leaves every other error alone', () => {
    const { db } = setup();
    db.exec('CREATE TABLE u (x UNIQUE)');
    db.exec('INSERT INTO u VALUES (1)');
    const constraint = catchError(() => db.exec('INSERT INTO u VALUES (1)'));
    expect(classifyStorageError(constraint)).toBeNull();
    expect(classifyStorageError(new Error('boom'))).toBeNull();
    expect(classifyStorageError(null)).toBeNull();
    expect(classifyStorageError('SQLITE_FULL')).toBeNull();
  });
});

describe('createDbHealth', () => {
  function healthFor(
    t: { db: Db; watch: Db },
    options: Partial<DbHealthOptions> = {},
  ): ReturnType<typeof createDbHealth> {
    return createDbHealth({
      logger,
      quickCheck: async (n) => quickCheck(t.db, n),
      commitVersion: () => dataVersion(t.watch),
      quarantined: null,
      ...options,
    });
  }

  it('reports a sound database as ok once its check passed', async () => {
    const t = setup();
    const health = healthFor(t);
    expect(health.report()).toEqual({
      problem: null,
      reason: null,
      action: null,
      integrityCheck: 'pending',
    });
    health.startCheck();
    expect(health.report().integrityCheck).toBe('running');
    await health.idle();
    expect(health.report()).toMatchObject({ problem: null, integrityCheck: 'passed' });
  });

  it('stays disk_full through reads and failed writes, until a commit by any connection', () => {
    const t = setup();
    const health = healthFor(t);
    expect(health.noteError(diskFullError(t.db))).toBe('disk_full');
    expect(health.report()).toMatchObject({ problem: 'disk_full' });
    expect(health.report().action).toMatch(/Free space/);
    t.db.prepare('SELECT count(*) FROM big').get();
    // Another failure starts over.
    health.noteError(diskFullError(t.db));
    expect(health.report().problem).toBe('disk_full');
    t.db.prepare('INSERT INTO big VALUES (randomblob(10))').run();
    expect(health.report()).toMatchObject({ problem: null, reason: null, action: null });
  });

  it('reports damage seen by a request at once, then runs one check that confirms it', async () => {
    const t = setup();
    const db = reopenDamaged(t);
    const watch = openDatabase({ path: t.path, key: t.key, readonly: true, migrate: false });
    cleanups.push(() => watch.close());
    let checks = 0;
    const health = healthFor(
      { db, watch },
      {
        quickCheck: async (n) => {
          checks++;
          return quickCheck(db, n);
        },
      },
    );
    const failed = catchError(() => db.prepare('SELECT sum(length(b)) FROM filler').get());
    expect(health.noteError(failed)).toBe('damaged');
    const seen = health.report();
    expect(seen).toMatchObject({ problem: 'damaged', integrityCheck: 'running' });
    expect(seen.reason).toMatch(/a read failed/);
    expect(seen.action).toMatch(/restore a recent encrypted backup/);

    await health.idle();
    const checked = health.report();
    expect(checked.integrityCheck).toBe('failed');
    expect(checked.reason).toMatch(/quick_check\) found \d+ problem/);
    // Damage does not heal: later failures report it, without checking the file again.
    health.noteError(failed);
    health.startCheck();
    await health.idle();
    expect(checks).toBe(1);
    // It outranks a full disk.
    health.noteError(diskFullError(db));
    expect(health.report().problem).toBe('damaged');
  });

  it('says where a quarantined database went, and when no check can run', () => {
    const t = setup();
    const health = healthFor(t, {
      quarantined: '/data/quarantine/x-memory.sqlite',
      quickCheck: null,
    });
    const report = health.report();
    expect(report).toMatchObject({ problem: 'quarantined', integrityCheck: 'unavailable' });
    expect(report.reason).toContain('/data/quarantine/x-memory.sqlite');
    health.startCheck();
    expect(health.report().integrityCheck).toBe('unavailable');
  });
});
