// The main window's size and position, kept in a small JSON file in userData. Pure Node so
// it is unit-tested without Electron; a broken or off-screen state falls back to defaults.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';

export const WindowState = z.object({
  x: z.number().int().optional(),
  y: z.number().int().optional(),
  width: z.number().int().min(480).max(20_000),
  height: z.number().int().min(360).max(20_000),
  maximized: z.boolean().default(false),
});
export type WindowState = z.infer<typeof WindowState>;

export const DEFAULT_WINDOW_STATE: WindowState = { width: 1180, height: 800, maximized: false };

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export function loadWindowState(file: string): WindowState {
  try {
    const parsed = WindowState.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : { ...DEFAULT_WINDOW_STATE };
  } catch {
    return { ...DEFAULT_WINDOW_STATE };
  }
}

export function saveWindowState(file: string, state: WindowState): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, JSON.stringify(state));
  renameSync(tmp, file);
}

/**
 * Keeps the saved position only when enough of the window (a 100×60 corner region of
 * its title bar) lies on one of the current displays: a monitor may have gone away.
 */
export function fitToDisplays(state: WindowState, displays: Rect[]): WindowState {
  if (state.x === undefined || state.y === undefined) return state;
  const { x, y } = state;
  const visible = displays.some(
    (d) => x + 100 > d.x && x < d.x + d.width - 60 && y >= d.y && y < d.y + d.height - 60,
  );
  if (visible) return state;
  const { x: _x, y: _y, ...rest } = state;
  return rest;
}
