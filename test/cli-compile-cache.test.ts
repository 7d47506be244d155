// The `cairn` entry's module compile cache (src/main/cli.ts): kept in the checkout's
// node_modules/.cache, never in the shared temporary folder (Node's default), where compiled
// code another user wrote would run in Cairn's process.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function runHelp(env: NodeJS.ProcessEnv): void {
  execFileSync(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', 'src/main/cli.ts', 'help'],
    {
      cwd: root,
      env,
      stdio: 'ignore',
    },
  );
}

describe.runIf(typeof (await import('node:module')).enableCompileCache === 'function')(
  'module compile cache of the cairn entry',
  () => {
    it('fills a folder in the checkout, not the temporary folder', () => {
      const tmp = mkdtempSync(join(tmpdir(), 'cairn-tmp-'));
      dirs.push(tmp);
      const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmp, TMP: tmp, TEMP: tmp };
      delete env.NODE_COMPILE_CACHE;
      delete env.NODE_DISABLE_COMPILE_CACHE;
      runHelp(env);
      expect(readdirSync(tmp)).toEqual([]);
      const inCheckout = join(root, 'node_modules', '.cache', 'node-compile-cache');
      expect(existsSync(inCheckout)).toBe(true);
      expect(readdirSync(inCheckout).length).toBeGreaterThan(0);
    });

    it('uses the folder NODE_COMPILE_CACHE names', () => {
      const chosen = mkdtempSync(join(tmpdir(), 'cairn-cc-'));
      dirs.push(chosen);
      runHelp({ ...process.env, NODE_COMPILE_CACHE: chosen });
      expect(readdirSync(chosen).length).toBeGreaterThan(0);
    });
  },
);
