// A real `cairn serve` child for the benches that measure Cairn as it runs in production: its
// own process and event loop, a fresh encrypted data folder, port 0, in front of the given
// upstream. BENCH_CAIRN_NODE_ARGS passes Node flags to it, e.g.
// BENCH_CAIRN_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' to profile the server.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { NODE_FLAGS } from '../bin/node-flags.mjs';

const root = resolve(import.meta.dirname, '..');

/** A running `cairn serve` child. */
export interface Served {
  url: string;
  token: string;
  child: ChildProcess;
  /** performance.now() at spawn. */
  spawnedAt: number;
  /** Spawn → "listening" printed. */
  listeningMs: number;
  /** Stops the child (if it still runs) and removes its data folder. */
  stop(): Promise<void>;
}

/**
 * The environment of a machine where the sentence model cannot be downloaded: every HTTP(S)
 * request outside loopback goes to a proxy nobody listens on (Node's own proxy support,
 * NODE_USE_ENV_PROXY), so the word vectors serve search. The upstream on 127.0.0.1 is reached
 * directly.
 */
export function offlineEnv(): Record<string, string> {
  const nowhere = 'http://127.0.0.1:9';
  return {
    NODE_USE_ENV_PROXY: '1',
    HTTP_PROXY: nowhere,
    HTTPS_PROXY: nowhere,
    NO_PROXY: '127.0.0.1,localhost,::1',
  };
}

/**
 * Starts `cairn serve` with `env` (besides its database key and access token, which are made
 * here) and resolves once it printed where it listens.
 */
export async function startServe(
  upstreamUrl: string,
  env: Record<string, string | undefined>,
): Promise<Served> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cairn-bench-'));
  const token = 'bench-' + randomBytes(8).toString('hex');
  const spawnedAt = performance.now();
  const child = spawn(
    process.execPath,
    [
      ...NODE_FLAGS,
      ...(process.env.BENCH_CAIRN_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      join(root, 'src/main/cli.ts'),
      'serve',
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--upstream',
      upstreamUrl,
      '--no-keychain',
      '--log-level',
      'warn',
    ],
    {
      env: { ...env, CAIRN_DB_KEY: randomBytes(32).toString('hex'), CAIRN_TOKEN: token },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise<string>((resolveUrl, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolveUrl(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`cairn serve exited (${code})`)));
  });
  return {
    url,
    token,
    child,
    spawnedAt,
    listeningMs: performance.now() - spawnedAt,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise<void>((r) => child.once('exit', () => r()));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
