import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/temp-db.ts';
import {
  DEFAULT_WINDOW_STATE,
  fitToDisplays,
  loadWindowState,
  saveWindowState,
} from './window-state.ts';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function file(): string {
  const { dir, cleanup } = tempDir('cairn-window-');
  cleanups.push(cleanup);
  return join(dir, 'state', 'window-state.json');
}

describe('window state', () => {
  it('round-trips through the file', () => {
    const f = file();
    saveWindowState(f, { x: 10, y: 20, width: 900, height: 700, maximized: true });
    expect(loadWindowState(f)).toEqual({ x: 10, y: 20, width: 900, height: 700, maximized: true });
  });

  it('falls back to defaults for a missing, corrupt or absurd file', () => {
    const f = file();
    expect(loadWindowState(f)).toEqual(DEFAULT_WINDOW_STATE);
    saveWindowState(f, DEFAULT_WINDOW_STATE);
    writeFileSync(f, '{not json');
    expect(loadWindowState(f)).toEqual(DEFAULT_WINDOW_STATE);
    writeFileSync(f, JSON.stringify({ width: 10, height: 10 }));
    expect(loadWindowState(f)).toEqual(DEFAULT_WINDOW_STATE);
  });

  it('drops a position that is on no current display', () => {
    const displays = [{ x: 0, y: 0, width: 1920, height: 1080 }];
    const on = { x: 100, y: 100, width: 800, height: 600, maximized: false };
    expect(fitToDisplays(on, displays)).toEqual(on);
    const off = { x: 2500, y: 100, width: 800, height: 600, maximized: false };
    expect(fitToDisplays(off, displays)).toEqual({ width: 800, height: 600, maximized: false });
    const second = [...displays, { x: 1920, y: 0, width: 1920, height: 1080 }];
    expect(fitToDisplays(off, second)).toEqual(off);
  });
});
