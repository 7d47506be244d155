// The database key through a REAL OS keychain: GNOME Keyring's Secret Service on a private
// D-Bus session (Debian packages gnome-keyring, dbus-x11; CI installs them), and the
// fallback to the 0600 key file where no session bus exists (a headless server).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from './helpers/temp-db.ts';

const root = join(import.meta.dirname, '..');
const secretsUrl = pathToFileURL(join(root, 'src/main/engine/secrets.ts')).href;
const databaseFileUrl = pathToFileURL(join(root, 'src/main/engine/store/database-file.ts')).href;
const loggerUrl = pathToFileURL(join(root, 'src/main/engine/logger.ts')).href;

function installed(cmd: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}
const missing = ['dbus-run-session', 'gnome-keyring-daemon'].filter((c) => !installed(c));
if (missing.length > 0) {
  console.warn(
    `keychain.test.ts: skipping the Secret Service round trip: ${missing.join(', ')} not installed (Debian: apt-get install gnome-keyring dbus-x11)`,
  );
}

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

interface ChildReport {
  runs: { source: string; keyHash: string; recoveryKeyShown: boolean; keyFileAfter: boolean }[];
  error: { code: string; message: string } | null;
  ms: number;
}

/**
 * The child: resolves the key `runs` times for dataDir (creating the database after the first
 * resolve, as the engine does) and prints sources and key hashes as JSON; never the key.
 */
function writeChildScript(dir: string): string {
  const script = join(dir, 'resolve-key.ts');
  writeFileSync(
    script,
    `
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { resolveDatabaseKey } from ${JSON.stringify(secretsUrl)};
import { openDataDirDatabase } from ${JSON.stringify(databaseFileUrl)};
import { silentLogger } from ${JSON.stringify(loggerUrl)};
const [dataDir, runs] = process.argv.slice(2);
const t0 = Date.now();
const out = [];
let error = null;
for (let i = 0; i < Number(runs); i++) {
  let r;
  try {
    r = await resolveDatabaseKey({ dataDir, env: process.env, useKeychain: true, logger: silentLogger, keychainTimeoutMs: 5000 });
  } catch (err) {
    error = { code: err.code, message: err.message };
    break;
  }
  if (i === 0) openDataDirDatabase({ dataDir, key: r.key, logger: silentLogger }).db.close();
  out.push({
    source: r.source,
    keyHash: createHash('sha256').update(r.key).digest('hex').slice(0, 16),
    recoveryKeyShown: r.recoveryKey !== null,
    keyFileAfter: existsSync(join(dataDir, 'db.key')),
  });
}
console.log(JSON.stringify({ runs: out, error, ms: Date.now() - t0 }));
`,
  );
  return script;
}

function childEnv(home: string, extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of ['CAIRN_DB_KEY', 'CAIRN_RECOVERY_KEY', 'DISPLAY', 'WAYLAND_DISPLAY'])
    delete env[k];
  // A private keyring folder and runtime dir: the test never sees or touches the user's keyring.
  env.HOME = home;
  env.XDG_DATA_HOME = join(home, 'data');
  env.XDG_RUNTIME_DIR = join(home, 'run');
  env.XDG_CACHE_HOME = join(home, 'cache');
  mkdirSync(env.XDG_RUNTIME_DIR, { recursive: true, mode: 0o700 });
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

function parseReport(res: ReturnType<typeof spawnSync>): ChildReport {
  const stdout = String(res.stdout);
  const line = stdout
    .split('\n')
    .reverse()
    .find((l) => l.startsWith('{"runs"'));
  if (res.status !== 0 || !line) {
    throw new Error(
      `child failed (status ${res.status}, signal ${res.signal}):\n${stdout}\n${String(res.stderr)}`,
    );
  }
  return JSON.parse(line) as ChildReport;
}

/**
 * Runs the child inside a fresh D-Bus session with GNOME Keyring's Secret Service, its login
 * keyring created/unlocked with a throwaway password. (An empty password, as in
 * `echo -n "" | gnome-keyring-daemon --unlock`, creates no login collection in GNOME Keyring
 * 42, so every write would fail with "no result found".)
 */
function runInKeyringSession(
  script: string,
  dataDir: string,
  runs: number,
  home: string,
  keyring: 'unlocked' | 'locked' = 'unlocked',
) {
  const daemon =
    keyring === 'unlocked'
      ? 'printf %s "cairn-test-keyring" | gnome-keyring-daemon --unlock --components=secrets >/dev/null'
      : 'gnome-keyring-daemon --start --components=secrets >/dev/null 2>&1';
  return spawnSync(
    'dbus-run-session',
    [
      '--',
      'sh',
      '-c',
      `${daemon} && exec "$0" "$@"`,
      process.execPath,
      '--disable-warning=ExperimentalWarning',
      script,
      dataDir,
      String(runs),
    ],
    { env: childEnv(home, {}), timeout: 30_000, encoding: 'utf8' },
  );
}

describe('database key in the OS keychain', () => {
  it.skipIf(missing.length > 0)(
    'round-trips through a real Secret Service: stored once, no key file, read back after a restart',
    () => {
      const t = tempDir('cairn-keychain-');
      cleanups.push(t.cleanup);
      const script = writeChildScript(t.dir);
      const dataDir = join(t.dir, 'cairn-data');
      const home = join(t.dir, 'home');

      const first = parseReport(runInKeyringSession(script, dataDir, 2, home));
      expect(first.runs[0]).toMatchObject({
        source: 'keychain',
        recoveryKeyShown: true,
        keyFileAfter: false,
      });
      expect(first.runs[1]).toMatchObject({
        source: 'keychain',
        recoveryKeyShown: false,
        keyFileAfter: false,
      });
      expect(first.runs[1]!.keyHash).toBe(first.runs[0]!.keyHash);
      expect(existsSync(join(dataDir, 'db.key'))).toBe(false);
      // The keyring on disk holds the entry (encrypted by GNOME Keyring), not our folder.
      expect(existsSync(join(home, 'data', 'keyrings', 'login.keyring'))).toBe(true);

      // A new session (a reboot, in effect): the daemon reads the keyring from disk.
      const second = parseReport(runInKeyringSession(script, dataDir, 1, home));
      expect(second.runs[0]).toMatchObject({
        source: 'keychain',
        recoveryKeyShown: false,
        keyFileAfter: false,
        keyHash: first.runs[0]!.keyHash,
      });

      // The keyring locked and nobody to unlock it (no display for the prompt): Cairn must not
      // make a new key over the existing database, nor hang. It says what to do instead.
      const locked = parseReport(runInKeyringSession(script, dataDir, 1, home, 'locked'));
      expect(locked.runs).toEqual([]);
      expect(locked.error?.code).toBe('key_not_found');
      expect(locked.error?.message).toMatch(/keychain is unavailable.*CAIRN_RECOVERY_KEY/s);
      expect(locked.ms).toBeLessThan(6000);
      expect(existsSync(join(dataDir, 'db.key'))).toBe(false);
    },
  );

  it('without a session bus, promptly falls back to a 0600 key file', () => {
    const t = tempDir('cairn-nokeychain-');
    cleanups.push(t.cleanup);
    const script = writeChildScript(t.dir);
    const dataDir = join(t.dir, 'cairn-data');
    const home = join(t.dir, 'home');
    for (const bus of [undefined, `unix:path=${join(t.dir, 'no-such-bus')}`]) {
      rmData(dataDir);
      const started = Date.now();
      const res = spawnSync(
        process.execPath,
        ['--disable-warning=ExperimentalWarning', script, dataDir, '2'],
        {
          env: childEnv(home, { DBUS_SESSION_BUS_ADDRESS: bus }),
          timeout: 20_000,
          encoding: 'utf8',
        },
      );
      const report = parseReport(res);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(report.ms).toBeLessThan(3000);
      expect(report.runs[0]).toMatchObject({
        source: 'keyfile',
        recoveryKeyShown: true,
        keyFileAfter: true,
      });
      expect(report.runs[1]).toMatchObject({ source: 'keyfile', recoveryKeyShown: false });
      expect(report.runs[1]!.keyHash).toBe(report.runs[0]!.keyHash);
      const keyFile = join(dataDir, 'db.key');
      if (process.platform !== 'win32') expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      const hex = String(spawnSync('cat', [keyFile]).stdout).trim();
      expect(createHash('sha256').update(Buffer.from(hex, 'hex')).digest('hex').slice(0, 16)).toBe(
        report.runs[0]!.keyHash,
      );
    }
  });
});

function rmData(dataDir: string): void {
  spawnSync('rm', ['-rf', dataDir]);
}
