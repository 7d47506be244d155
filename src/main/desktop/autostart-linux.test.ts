import { existsSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/temp-db.ts';
import { autostartFile, setLinuxAutostart } from './autostart-linux.ts';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

describe('Linux autostart entry', () => {
  it('is written when enabled and removed when disabled', () => {
    const { dir, cleanup } = tempDir('cairn-autostart-');
    cleanups.push(cleanup);
    setLinuxAutostart(true, { executable: '/opt/My Apps/Cairn.AppImage', configHome: dir });
    const file = autostartFile(dir);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('[Desktop Entry]');
    expect(text).toContain('Exec="/opt/My Apps/Cairn.AppImage" --hidden');
    setLinuxAutostart(false, { executable: 'x', configHome: dir });
    expect(existsSync(file)).toBe(false);
    // Disabling twice is fine.
    setLinuxAutostart(false, { executable: 'x', configHome: dir });
  });
});
