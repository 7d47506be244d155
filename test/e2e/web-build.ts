// The built web UI for the browser tests: out/renderer-web, rebuilt with Vite when it is
// missing or older than its sources (src/renderer, src/shared).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const root = resolve(import.meta.dirname, '../..');
export const webDir = join(root, 'out', 'renderer-web');
export const shotDir = join(root, 'test-results', 'screenshots');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** Builds the web renderer when it is missing or older than its sources. */
export function ensureWebBuild(): void {
  const index = join(webDir, 'index.html');
  const sources = Math.max(
    newestMtime(join(root, 'src', 'renderer')),
    newestMtime(join(root, 'src', 'shared')),
  );
  if (existsSync(index) && statSync(index).mtimeMs >= sources) return;
  execFileSync(
    process.execPath,
    [
      join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--config',
      'vite.web.config.ts',
    ],
    { cwd: root, stdio: 'pipe', timeout: 120_000 },
  );
}
