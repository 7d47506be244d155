// The main window: restores its size/position, loads the UI served by the engine (same
// origin as the API, with the server's CSP header), and refuses navigation elsewhere.
import { BrowserWindow, screen, shell } from 'electron';
import { sandboxedWebPreferences } from './sandboxed-web-preferences.ts';
import {
  fitToDisplays,
  loadWindowState,
  saveWindowState,
  type WindowState,
} from './window-state.ts';

export interface MainWindowOptions {
  /** The page to load (the engine's `/`, or the dev server's URL). */
  url: string;
  preload: string;
  stateFile: string;
  icon?: string;
}

export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const saved = fitToDisplays(
    loadWindowState(options.stateFile),
    screen.getAllDisplays().map((d) => d.workArea),
  );
  const win = new BrowserWindow({
    width: saved.width,
    height: saved.height,
    x: saved.x,
    y: saved.y,
    minWidth: 480,
    minHeight: 360,
    show: false,
    title: 'Cairn',
    icon: options.icon,
    autoHideMenuBar: true,
    webPreferences: { ...sandboxedWebPreferences(options.preload), spellcheck: false },
  });
  if (saved.maximized) win.maximize();
  win.once('ready-to-show', () => win.show());

  const origin = new URL(options.url).origin;
  // Links to the web open in the browser; nothing opens a new Electron window.
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//.test(url) && new URL(url).origin !== origin) void shell.openExternal(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-navigate', (event, url) => {
    if (new URL(url).origin !== origin) {
      event.preventDefault();
      if (/^https?:\/\//.test(url)) void shell.openExternal(url);
    }
  });
  win.webContents.session.setPermissionRequestHandler((_wc, _permission, callback) =>
    callback(false),
  );

  let timer: NodeJS.Timeout | null = null;
  const persist = () => {
    if (win.isDestroyed()) return;
    const bounds = win.getNormalBounds();
    const state: WindowState = { ...bounds, maximized: win.isMaximized() };
    try {
      saveWindowState(options.stateFile, state);
    } catch {
      // Not worth bothering the user: the next start uses the defaults.
    }
  };
  const schedule = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(persist, 500);
  };
  win.on('resize', schedule);
  win.on('move', schedule);
  win.on('close', () => {
    if (timer) clearTimeout(timer);
    persist();
  });

  void win.loadURL(options.url);
  return win;
}
