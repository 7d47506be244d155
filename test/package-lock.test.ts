// `npm install` in a fresh clone must leave the work tree clean: the lockfile has to say
// which installed packages run install scripts (an explicit (pre|post)install script, or a
// binding.gyp, for which npm runs `node-gyp rebuild`), or npm rewrites it on every install.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { hasInstallScript?: boolean; optional?: boolean }>;
};

describe('package-lock.json', () => {
  it('marks every installed package that has an install script', () => {
    const missing: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      if (!path.startsWith('node_modules/')) continue;
      const manifest = join(root, path, 'package.json');
      if (!existsSync(manifest)) continue; // optional, for another platform
      const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as {
        scripts?: Record<string, string>;
      };
      const scripts = pkg.scripts ?? {};
      const runs =
        'preinstall' in scripts ||
        'install' in scripts ||
        'postinstall' in scripts ||
        existsSync(join(root, path, 'binding.gyp'));
      if (runs && !entry.hasInstallScript) missing.push(path);
    }
    expect(missing).toEqual([]);
  });
});
