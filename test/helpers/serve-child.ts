// Runs the real headless entry (`node src/main/cli.ts serve`, Node 24 from node_modules) as a
// child process on a free port, for tests that must kill it (SIGKILL) and restart.
import { type ChildProcess, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..', '..');
const nodeBin = join(root, 'node_modules', '.bin', 'node');

export interface ServeChildOptions {
  dataDir: string;
  /** 64 hex characters (CAIRN_DB_KEY). */
  dbKey: string;
  token: string;
  /** CAIRN_UPSTREAM_URL, when the test needs a provider. */
  upstreamUrl?: string;
  /** Leave CAIRN_EMBEDDING_BACKEND unset, so the engine's default embedder runs (else none). */
  defaultEmbedder?: boolean;
  /** More environment variables for the child. */
  env?: Record<string, string>;
}

export function startServeChild(
  options: ServeChildOptions,
): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
  const child = spawn(
    nodeBin,
    [
      '--disable-warning=ExperimentalWarning',
      join(root, 'src/main/cli.ts'),
      'serve',
      '--port',
      '0',
      '--data-dir',
      options.dataDir,
      '--no-keychain',
      '--log-level',
      'warn',
    ],
    {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        CAIRN_DB_KEY: options.dbKey,
        CAIRN_TOKEN: options.token,
        ...(options.defaultEmbedder ? {} : { CAIRN_EMBEDDING_BACKEND: 'none' }),
        ...(options.upstreamUrl ? { CAIRN_UPSTREAM_URL: options.upstreamUrl } : {}),
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return new Promise((resolvePromise, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${out} ${err}`)), 15_000);
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolvePromise({ child, url: m[1]!, stderr: () => err });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}: ${err}`));
    });
  });
}
