// One `electron-vite build` for the test files that need out/ (package layout, main-bundle
// smoke test), even when vitest runs them in parallel: a directory lock serialises them and
// a build newer than every source is reused.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const lock = join(root, 'out', '.electron-build-lock');
const marker = join(root, 'out', 'main', 'index.js');

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = 0;
  for (const e of readdirSync(path, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) newest = Math.max(newest, statSync(join(e.parentPath, e.name)).mtimeMs);
  }
  return newest;
}

function sourcesMtime(): number {
  return Math.max(
    ...['src/main', 'src/preload', 'src/renderer', 'src/shared', 'electron.vite.config.ts'].map(
      (p) => newestMtime(join(root, p)),
    ),
  );
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

export function ensureElectronBuild(timeoutMs = 150_000): void {
  mkdirSync(join(root, 'out'), { recursive: true });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A lock older than the timeout was left by a killed run.
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > timeoutMs) {
        rmSync(lock, { recursive: true, force: true });
      }
      if (Date.now() > deadline) throw new Error('timed out waiting for the electron build lock');
      sleep(200);
    }
  }
  try {
    if (existsSync(marker) && statSync(marker).mtimeMs >= sourcesMtime()) return;
    execFileSync(
      process.execPath,
      [join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'],
      { cwd: root, stdio: 'pipe', timeout: timeoutMs },
    );
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
