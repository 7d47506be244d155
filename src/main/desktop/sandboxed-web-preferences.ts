// The web preferences of every Cairn window: the page runs sandboxed, isolated from its
// preload, with no Node (Electron's security checklist:
// https://www.electronjs.org/docs/latest/tutorial/security). One place, so a new window
// cannot forget one of them.
import type { WebPreferences } from 'electron';

export function sandboxedWebPreferences(preload: string): WebPreferences {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    webSecurity: true,
  };
}
