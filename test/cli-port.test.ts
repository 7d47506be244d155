// `cairn serve` honours the port saved in Settings ("takes effect after a restart") unless
// --port or CAIRN_PORT fixes one.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEngine } from './helpers/engine-harness.ts';

const root = resolve(import.meta.dirname, '..');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

/** Starts `cairn serve`, returns the URL it printed, then stops it with SIGINT. */
async function serveOnce(dataDir: string, dbKey: string, args: string[]): Promise<string> {
  const child = spawn(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', 'src/main/cli.ts', 'serve', ...args],
    {
      cwd: root,
      env: {
        ...process.env,
        CAIRN_DB_KEY: dbKey,
        CAIRN_TOKEN: 'cli-port-token',
        CAIRN_EMBEDDING_BACKEND: 'none',
        CAIRN_PORT: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  try {
    return await new Promise<string>((resolveUrl, reject) => {
      const timer = setTimeout(() => reject(new Error(`no start-up line: ${out}${err}`)), 20_000);
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolveUrl(m[1]!);
        }
      });
      void exited.then((code) => reject(new Error(`exited ${code}: ${out}${err}`)));
    });
  } finally {
    child.kill('SIGINT');
    await exited;
  }
}

describe('cairn serve: port', () => {
  it('listens on the port saved in Settings, unless --port is given', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cairn-cli-port-'));
    dirs.push(dataDir);
    const port = await freePort();
    const h = await startEngine({ dataDir, upstream: null });
    const saved = await h.api('PUT', '/settings', { port });
    expect(saved.status).toBe(200);
    const dbKey = h.dbKey;
    await h.stop();

    expect(await serveOnce(dataDir, dbKey, ['--data-dir', dataDir, '--no-keychain'])).toBe(
      `http://127.0.0.1:${port}`,
    );
    const other = await freePort();
    expect(
      await serveOnce(dataDir, dbKey, [
        '--data-dir',
        dataDir,
        '--no-keychain',
        '--port',
        String(other),
      ]),
    ).toBe(`http://127.0.0.1:${other}`);
  });
});
