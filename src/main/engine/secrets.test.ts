import {
  chmodSync,
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/temp-db.ts';
import { ErrorCode } from '../../shared/errors.ts';
import { silentLogger } from './logger.ts';
import {
  formatRecoveryKey,
  getRecoveryKey,
  keychainAccount,
  parseRecoveryKey,
  resolveDatabaseKey,
  rotateDatabaseKey,
  type KeychainAccessor,
  type ResolveKeyOptions,
} from './secrets.ts';
import { openDataDirDatabase } from './store/database-file.ts';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function dir(): string {
  const t = tempDir('cairn-secrets-');
  cleanups.push(t.cleanup);
  return join(t.dir, 'data');
}

/** An in-memory credential store with switchable failure modes. */
function fakeKeychain(mode: 'ok' | 'broken' | 'read-only' | 'hangs' = 'ok') {
  const entries = new Map<string, string>();
  const calls: string[] = [];
  const keychain: KeychainAccessor = {
    get(account) {
      calls.push(`get ${account}`);
      if (mode === 'broken') throw new Error('org.freedesktop.secrets was not provided');
      if (mode === 'hangs') return new Promise<string | null>(() => {});
      return entries.get(account) ?? null;
    },
    set(account, value) {
      calls.push(`set ${account}`);
      if (mode === 'read-only') throw new Error('no default collection');
      entries.set(account, value);
    },
    delete(account) {
      calls.push(`delete ${account}`);
      entries.delete(account);
    },
  };
  return { keychain, entries, calls };
}

function opts(dataDir: string, extra: Partial<ResolveKeyOptions> = {}): ResolveKeyOptions {
  return { dataDir, env: {}, useKeychain: true, logger: silentLogger, ...extra };
}

async function expectCode(p: Promise<unknown>, code: string): Promise<Error> {
  const err = await p.then(
    () => null,
    (e: unknown) => e as Error & { code?: string },
  );
  expect(err, `expected a CairnError ${code}`).not.toBeNull();
  expect((err as { code?: string }).code).toBe(code);
  return err as Error;
}

/** Creates a real encrypted database in dataDir with `key`. */
function makeDatabase(dataDir: string, key: Buffer): void {
  const { db } = openDataDirDatabase({ dataDir, key, logger: silentLogger });
  db.close();
}

describe('recovery key', () => {
  it('round-trips any key and reads it back however it is typed', () => {
    for (let i = 0; i < 50; i++) {
      const key = randomBytes(32);
      const text = formatRecoveryKey(key);
      expect(text).toMatch(/^([0-9A-HJKMNP-TV-Z]{4}-){13}[0-9A-HJKMNP-TV-Z]{4}$/);
      expect(parseRecoveryKey(text).equals(key)).toBe(true);
      const sloppy = `  ${text.toLowerCase().replace(/-/g, ' ').replace(/0/g, 'o').replace(/1/g, 'l')}\n`;
      expect(parseRecoveryKey(sloppy).equals(key)).toBe(true);
    }
  });

  it('catches a one-character typo with the checksum', () => {
    const key = randomBytes(32);
    const text = formatRecoveryKey(key);
    let caught = 0;
    for (let pos = 0; pos < text.length; pos++) {
      if (text[pos] === '-') continue;
      const swapped = text[pos] === 'A' ? 'B' : 'A';
      const typo = text.slice(0, pos) + swapped + text.slice(pos + 1);
      try {
        parseRecoveryKey(typo);
      } catch (err) {
        expect((err as { code?: string }).code).toBe(ErrorCode.InvalidKey);
        caught++;
      }
    }
    expect(caught).toBe(56);
    expect(() => parseRecoveryKey(text.slice(0, -1))).toThrow(/56 characters/);
    expect(() => parseRecoveryKey(text.replace(/^./, 'U'))).toThrow(/"U"/);
    expect(() => parseRecoveryKey(text.slice(0, -1) + (text.endsWith('A') ? 'B' : 'A'))).toThrow(
      /typo/,
    );
  });
});

describe('resolveDatabaseKey decision table', () => {
  it('an explicit CAIRN_DB_KEY wins and nothing is stored', async () => {
    const dataDir = dir();
    const { keychain, calls } = fakeKeychain();
    const hex = randomBytes(32).toString('hex');
    const r = await resolveDatabaseKey(opts(dataDir, { env: { CAIRN_DB_KEY: hex }, keychain }));
    expect(r).toEqual({ key: Buffer.from(hex, 'hex'), source: 'env', recoveryKey: null });
    expect(calls).toEqual([]);
    expect(existsSync(join(dataDir, 'db.key'))).toBe(false);
  });

  it('dbKeyHex wins over CAIRN_DB_KEY, even with a database and a stored key', async () => {
    const dataDir = dir();
    const { keychain } = fakeKeychain();
    const first = await resolveDatabaseKey(opts(dataDir, { keychain }));
    makeDatabase(dataDir, first.key);
    const hex = randomBytes(32).toString('hex');
    const r = await resolveDatabaseKey(
      opts(dataDir, { keychain, dbKeyHex: hex, env: { CAIRN_DB_KEY: 'ab'.repeat(32) } }),
    );
    expect(r.source).toBe('env');
    expect(r.key.toString('hex')).toBe(hex);
  });

  it('rejects a malformed CAIRN_DB_KEY with a clear message', async () => {
    const dataDir = dir();
    const err = await expectCode(
      resolveDatabaseKey(opts(dataDir, { env: { CAIRN_DB_KEY: 'abc123' } })),
      ErrorCode.InvalidKey,
    );
    expect(err.message).toMatch(/CAIRN_DB_KEY must be exactly 64 hexadecimal characters/);
    await expectCode(
      resolveDatabaseKey(opts(dataDir, { env: { CAIRN_DB_KEY: 'zz'.repeat(32) } })),
      ErrorCode.InvalidKey,
    );
  });

  it('first run with a working keychain: new key in the keychain, recovery key shown once', async () => {
    const dataDir = dir();
    const { keychain, entries } = fakeKeychain();
    const r1 = await resolveDatabaseKey(opts(dataDir, { keychain }));
    expect(r1.source).toBe('keychain');
    expect(r1.key.length).toBe(32);
    expect(r1.recoveryKey).not.toBeNull();
    expect(parseRecoveryKey(r1.recoveryKey!).equals(r1.key)).toBe(true);
    expect(entries.get(keychainAccount(dataDir))).toBe(r1.key.toString('hex'));
    expect(existsSync(join(dataDir, 'db.key'))).toBe(false);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);

    makeDatabase(dataDir, r1.key);
    const r2 = await resolveDatabaseKey(opts(dataDir, { keychain }));
    expect(r2.source).toBe('keychain');
    expect(r2.key.equals(r1.key)).toBe(true);
    expect(r2.recoveryKey).toBeNull();
    expect(await getRecoveryKey(opts(dataDir, { keychain }))).toBe(r1.recoveryKey);
  });

  it('keeps showing the recovery key until the database exists (setup not finished)', async () => {
    const dataDir = dir();
    const { keychain } = fakeKeychain();
    const r1 = await resolveDatabaseKey(opts(dataDir, { keychain }));
    // The first start stopped before creating the database: the key is kept, shown again.
    const r2 = await resolveDatabaseKey(opts(dataDir, { keychain }));
    expect(r2.key.equals(r1.key)).toBe(true);
    expect(r2.recoveryKey).toBe(r1.recoveryKey);
    makeDatabase(dataDir, r2.key);
    expect((await resolveDatabaseKey(opts(dataDir, { keychain }))).recoveryKey).toBeNull();
  });

  it('the keychain entry follows a moved data folder (its id lives in the folder)', async () => {
    const dataDir = dir();
    const { keychain } = fakeKeychain();
    const r1 = await resolveDatabaseKey(opts(dataDir, { keychain }));
    makeDatabase(dataDir, r1.key);
    const account = keychainAccount(dataDir);
    expect(account).toMatch(/^database-key:[0-9a-f-]{36}$/);
    const other = dir();
    expect(keychainAccount(other)).not.toBe(account);
    const moved = dir();
    renameSync(dataDir, moved);
    const r2 = await resolveDatabaseKey(opts(moved, { keychain }));
    expect(r2.source).toBe('keychain');
    expect(r2.key.equals(r1.key)).toBe(true);
  });

  it.each([
    ['broken', 'no Secret Service'],
    ['read-only', 'a keychain that refuses writes'],
  ] as const)('falls back to a 0600 key file with %s keychain (%s)', async (mode, _what) => {
    const dataDir = dir();
    const { keychain } = fakeKeychain(mode);
    const r1 = await resolveDatabaseKey(opts(dataDir, { keychain }));
    expect(r1.source).toBe('keyfile');
    expect(r1.recoveryKey).not.toBeNull();
    const file = join(dataDir, 'db.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(r1.key.toString('hex'));
    makeDatabase(dataDir, r1.key);
    const r2 = await resolveDatabaseKey(opts(dataDir, { keychain }));
    expect(r2).toEqual({ key: r1.key, source: 'keyfile', recoveryKey: null });
  });

  it('a keychain that never answers counts as unavailable after the timeout', async () => {
    const dataDir = dir();
    const { keychain } = fakeKeychain('hangs');
    // Without the timeout this would wait forever and the test would fail on vitest's limit.
    const r = await resolveDatabaseKey(opts(dataDir, { keychain, keychainTimeoutMs: 150 }));
    expect(r.source).toBe('keyfile');
  });

  it('useKeychain false never touches the keychain', async () => {
    const dataDir = dir();
    const { keychain, calls } = fakeKeychain();
    const r = await resolveDatabaseKey(opts(dataDir, { keychain, useKeychain: false }));
    expect(r.source).toBe('keyfile');
    expect(calls).toEqual([]);
  });

  it('a key file is still used when a keychain appears later without an entry', async () => {
    const dataDir = dir();
    const r1 = await resolveDatabaseKey(
      opts(dataDir, { keychain: fakeKeychain('broken').keychain }),
    );
    makeDatabase(dataDir, r1.key);
    const r2 = await resolveDatabaseKey(opts(dataDir, { keychain: fakeKeychain().keychain }));
    expect(r2.source).toBe('keyfile');
    expect(r2.key.equals(r1.key)).toBe(true);
  });

  it('never generates a key over an existing database: asks for the recovery key', async () => {
    const dataDir = dir();
    makeDatabase(dataDir, randomBytes(32));
    const { keychain, entries } = fakeKeychain();
    const err = await expectCode(
      resolveDatabaseKey(opts(dataDir, { keychain })),
      ErrorCode.KeyNotFound,
    );
    expect(err.message).toMatch(/CAIRN_RECOVERY_KEY/);
    expect(entries.size).toBe(0);
    expect(existsSync(join(dataDir, 'db.key'))).toBe(false);

    const broken = fakeKeychain('broken').keychain;
    const err2 = await expectCode(
      resolveDatabaseKey(opts(dataDir, { keychain: broken })),
      ErrorCode.KeyNotFound,
    );
    expect(err2.message).toMatch(/keychain is unavailable/);
    await expectCode(getRecoveryKey(opts(dataDir, { keychain })), ErrorCode.KeyNotFound);
  });

  it('a lost keychain entry is recovered with CAIRN_RECOVERY_KEY and stored again', async () => {
    const dataDir = dir();
    const { keychain, entries } = fakeKeychain();
    const r1 = await resolveDatabaseKey(opts(dataDir, { keychain }));
    makeDatabase(dataDir, r1.key);
    entries.clear(); // the keychain entry is lost

    const r2 = await resolveDatabaseKey(
      opts(dataDir, { keychain, env: { CAIRN_RECOVERY_KEY: r1.recoveryKey!.toLowerCase() } }),
    );
    expect(r2).toEqual({ key: r1.key, source: 'recovery', recoveryKey: null });
    expect(entries.get(keychainAccount(dataDir))).toBe(r1.key.toString('hex'));

    const r3 = await resolveDatabaseKey(opts(dataDir, { keychain }));
    expect(r3.source).toBe('keychain');
    expect(r3.key.equals(r1.key)).toBe(true);
  });

  it('a recovery key replaces a stale key file, and is stored in a key file without a keychain', async () => {
    const dataDir = dir();
    const key = randomBytes(32);
    makeDatabase(dataDir, key);
    writeFileSync(join(dataDir, 'db.key'), randomBytes(32).toString('hex'), { mode: 0o600 });
    const r = await resolveDatabaseKey(
      opts(dataDir, { useKeychain: false, env: { CAIRN_RECOVERY_KEY: formatRecoveryKey(key) } }),
    );
    expect(r.source).toBe('recovery');
    expect(readFileSync(join(dataDir, 'db.key'), 'utf8').trim()).toBe(key.toString('hex'));
    expect(statSync(join(dataDir, 'db.key')).mode & 0o777).toBe(0o600);
    const again = await resolveDatabaseKey(opts(dataDir, { useKeychain: false }));
    expect(again.source).toBe('keyfile');
    expect(again.key.equals(key)).toBe(true);
  });

  it("refuses another database's recovery key and stores nothing", async () => {
    const dataDir = dir();
    makeDatabase(dataDir, randomBytes(32));
    const { keychain, entries } = fakeKeychain();
    const err = await expectCode(
      resolveDatabaseKey(
        opts(dataDir, {
          keychain,
          env: { CAIRN_RECOVERY_KEY: formatRecoveryKey(randomBytes(32)) },
        }),
      ),
      ErrorCode.WrongKey,
    );
    expect(err.message).toMatch(/does not open the database/);
    expect(entries.size).toBe(0);
  });

  it('a recovery key with a typo is refused with a clear message', async () => {
    const dataDir = dir();
    const text = formatRecoveryKey(randomBytes(32));
    const typo = (text[0] === 'A' ? 'B' : 'A') + text.slice(1);
    const err = await expectCode(
      resolveDatabaseKey(opts(dataDir, { env: { CAIRN_RECOVERY_KEY: typo } })),
      ErrorCode.InvalidKey,
    );
    expect(err.message).toMatch(/typo/);
  });
});

describe.skipIf(process.platform === 'win32')('key file permissions', () => {
  it('refuses a key file readable by the group or others', async () => {
    const dataDir = dir();
    const r = await resolveDatabaseKey(opts(dataDir, { useKeychain: false }));
    const file = join(dataDir, 'db.key');
    for (const mode of [0o640, 0o604, 0o644]) {
      chmodSync(file, mode);
      const err = await expectCode(
        resolveDatabaseKey(opts(dataDir, { useKeychain: false })),
        ErrorCode.InvalidKey,
      );
      expect(err.message).toMatch(/readable by other users/);
      expect(err.message).toMatch(/chmod 600/);
      expect(err.message).not.toContain(r.key.toString('hex'));
    }
    chmodSync(file, 0o600);
    const ok = await resolveDatabaseKey(opts(dataDir, { useKeychain: false }));
    expect(ok.key.equals(r.key)).toBe(true);
  });

  it('refuses a damaged key file instead of replacing it', async () => {
    const dataDir = dir();
    await resolveDatabaseKey(opts(dataDir, { useKeychain: false }));
    const file = join(dataDir, 'db.key');
    writeFileSync(file, 'not a key\n', { mode: 0o600 });
    await expectCode(
      resolveDatabaseKey(opts(dataDir, { useKeychain: false })),
      ErrorCode.InvalidKey,
    );
    expect(readFileSync(file, 'utf8')).toBe('not a key\n');
  });
});

describe('rotateDatabaseKey (cairn rekey)', () => {
  function insertRow(db: ReturnType<typeof openDataDirDatabase>['db'], text: string): void {
    db.prepare(
      `INSERT INTO transcript (agent_id, conversation_id, role, content, created_at) VALUES ('a', 'c', 'user', ?, 1)`,
    ).run(text);
  }
  function rows(dataDir: string, key: Buffer): number {
    const { db } = openDataDirDatabase({ dataDir, key, logger: silentLogger });
    try {
      return (db.prepare('SELECT count(*) AS n FROM transcript').get() as { n: number }).n;
    } finally {
      db.close();
    }
  }

  it.each([['keyfile'], ['keychain']] as const)(
    're-encrypts with a new key kept in the %s; the old key stops working',
    async (where) => {
      const dataDir = dir();
      const { keychain, entries } = fakeKeychain(where === 'keychain' ? 'ok' : 'broken');
      const first = await resolveDatabaseKey(opts(dataDir, { keychain }));
      expect(first.source).toBe(where);
      const { db } = openDataDirDatabase({ dataDir, key: first.key, logger: silentLogger });
      insertRow(db, 'kept across rekey');
      const rotated = await rotateDatabaseKey({ ...opts(dataDir, { keychain }), db });
      db.close();
      expect(rotated.source).toBe(where);
      expect(rotated.key.equals(first.key)).toBe(false);
      expect(parseRecoveryKey(rotated.recoveryKey).equals(rotated.key)).toBe(true);
      expect(existsSync(join(dataDir, 'db.key.next'))).toBe(false);
      expect([...entries.keys()].some((k) => k.endsWith('.next'))).toBe(false);

      const next = await resolveDatabaseKey(opts(dataDir, { keychain }));
      expect(next.source).toBe(where);
      expect(next.key.equals(rotated.key)).toBe(true);
      expect(rows(dataDir, next.key)).toBe(1);
      expect(() => openDataDirDatabase({ dataDir, key: first.key, logger: silentLogger })).toThrow(
        /different key/,
      );
    },
  );

  it('a crash before the database changed: the pending key is dropped', async () => {
    const dataDir = dir();
    const first = await resolveDatabaseKey(opts(dataDir, { useKeychain: false }));
    makeDatabase(dataDir, first.key);
    writeFileSync(join(dataDir, 'db.key.next'), randomBytes(32).toString('hex'), { mode: 0o600 });
    const r = await resolveDatabaseKey(opts(dataDir, { useKeychain: false }));
    expect(r.key.equals(first.key)).toBe(true);
    expect(existsSync(join(dataDir, 'db.key.next'))).toBe(false);
  });

  it('a crash after the database was re-encrypted: the pending key becomes current', async () => {
    const dataDir = dir();
    const first = await resolveDatabaseKey(opts(dataDir, { useKeychain: false }));
    const { db } = openDataDirDatabase({ dataDir, key: first.key, logger: silentLogger });
    insertRow(db, 'x');
    const rotated = await rotateDatabaseKey({ ...opts(dataDir, { useKeychain: false }), db });
    db.close();
    // Put the files back as they were between rekey and promotion.
    writeFileSync(join(dataDir, 'db.key'), first.key.toString('hex'), { mode: 0o600 });
    writeFileSync(join(dataDir, 'db.key.next'), rotated.key.toString('hex'), { mode: 0o600 });
    const r = await resolveDatabaseKey(opts(dataDir, { useKeychain: false }));
    expect(r.key.equals(rotated.key)).toBe(true);
    expect(readFileSync(join(dataDir, 'db.key'), 'utf8').trim()).toBe(rotated.key.toString('hex'));
    expect(existsSync(join(dataDir, 'db.key.next'))).toBe(false);
    expect(rows(dataDir, r.key)).toBe(1);
  });

  it('is refused when the key comes from CAIRN_DB_KEY', async () => {
    const dataDir = dir();
    const hex = randomBytes(32).toString('hex');
    const { db } = openDataDirDatabase({
      dataDir,
      key: Buffer.from(hex, 'hex'),
      logger: silentLogger,
    });
    try {
      await expectCode(
        rotateDatabaseKey({ ...opts(dataDir, { env: { CAIRN_DB_KEY: hex } }), db }),
        ErrorCode.BadRequest,
      );
    } finally {
      db.close();
    }
  });
});

describe('recovery key without a database to prove the stored key stale', () => {
  it('keeps the replaced key aside instead of losing it', async () => {
    const dataDir = dir();
    const old = await resolveDatabaseKey(opts(dataDir, { useKeychain: false }));
    const other = randomBytes(32);
    const r = await resolveDatabaseKey(
      opts(dataDir, { useKeychain: false, env: { CAIRN_RECOVERY_KEY: formatRecoveryKey(other) } }),
    );
    expect(r.key.equals(other)).toBe(true);
    const kept = readdirSync(dataDir).filter((f) => f.startsWith('db.key.replaced-'));
    expect(kept).toHaveLength(1);
    expect(readFileSync(join(dataDir, kept[0]!), 'utf8').trim()).toBe(old.key.toString('hex'));
    expect(statSync(join(dataDir, kept[0]!)).mode & 0o777).toBe(0o600);
  });
});
