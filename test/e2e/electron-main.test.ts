// Smoke test of the built Electron main bundle (out/main/index.js) without an Electron
// binary: plain Node runs it with `electron` resolved to a small recording stand-in (a
// module resolve hook). The real engine starts on a real port with a real encrypted
// database in a temporary userData; the stand-in then loads the page the window would
// load, calls the IPC the preload would call (from a good and a foreign frame), and quits.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { ensureElectronBuild } from './electron-build.ts';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const mainBundle = join(root, 'out', 'main', 'index.js');
let work: string;

const STUB = String.raw`
import { EventEmitter } from 'node:events';
const report = { events: [], ipc: {}, page: null, quitAfterStop: false };
const log = (e) => report.events.push(e);
const app = new EventEmitter();
let readyResolve;
const ready = new Promise((r) => (readyResolve = r));
const handlers = new Map();
const listeners = new Map();
let loaded = null;
Object.assign(app, {
  isPackaged: false,
  requestSingleInstanceLock: () => true,
  setAppUserModelId: () => {},
  whenReady: () => ready,
  getPath: (name) => process.env.STUB_USER_DATA + '/' + name,
  getAppPath: () => process.env.STUB_APP_PATH,
  getLoginItemSettings: () => ({ openAtLogin: false, wasOpenedAtLogin: false }),
  setLoginItemSettings: (s) => log('login-item:' + s.openAtLogin),
  quit: () => { log('quit'); const prevented = { v: false };
    app.emit('before-quit', { preventDefault: () => (prevented.v = true) });
    if (!prevented.v) finish(); },
  exit: (code) => { log('exit:' + code); finish(); },
});
app.getPath = (name) => name === 'userData' ? process.env.STUB_USER_DATA : process.env.STUB_USER_DATA + '/' + name;
function finish() {
  process.stdout.write('STUB-REPORT ' + JSON.stringify(report) + '\n');
  process.exit(0);
}
class WebContents extends EventEmitter {
  constructor() { super(); this.session = { setPermissionRequestHandler: () => log('permissions-denied') }; this.mainFrame = { url: '' }; }
  setWindowOpenHandler() { log('window-open-handler'); }
}
export class BrowserWindow extends EventEmitter {
  constructor(opts) { super(); this.opts = opts; this.webContents = new WebContents(); log('window:' + JSON.stringify(opts.webPreferences)); }
  static fromWebContents() { return null; }
  loadURL(url) { loaded = url; this.webContents.mainFrame.url = url; log('loadURL'); setTimeout(() => scenario(this), 10); return Promise.resolve(); }
  maximize() {} isDestroyed() { return false; } isMinimized() { return false; } isMaximized() { return false; }
  getNormalBounds() { return { x: 0, y: 0, width: 1180, height: 800 }; }
  show() {} focus() {} restore() {} close() {}
}
export const screen = { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] };
export const dialog = { showMessageBox: async (o) => { log('dialog:' + o.title); return { response: 1 }; }, showOpenDialog: async () => ({ canceled: true, filePaths: [] }), showSaveDialog: async () => ({ canceled: true }) };
export const shell = { openPath: async () => '', openExternal: async () => {} };
export const ipcMain = {
  handle: (ch, fn) => handlers.set(ch, fn), removeHandler: (ch) => handlers.delete(ch),
  on: (ch, fn) => listeners.set(ch, fn), removeListener: (ch) => listeners.delete(ch),
};
export const Menu = { buildFromTemplate: (t) => ({ items: t }) };
export class Tray { constructor() { log('tray'); } setToolTip() {} setContextMenu() {} on() {} destroy() { log('tray-destroyed'); } }
export const nativeImage = { createFromPath: () => ({ isEmpty: () => false, resize: () => ({}) }), createEmpty: () => ({}) };
export const clipboard = { writeText: () => {} };
export default { app, BrowserWindow, screen, dialog, shell, ipcMain, Menu, Tray, nativeImage, clipboard };
export { app };

async function scenario(win) {
  try {
    const res = await fetch(loaded);
    const html = await res.text();
    report.page = { url: loaded, status: res.status, csp: res.headers.get('content-security-policy'), hasRoot: html.includes('id="root"') };
    const frame = win.webContents.mainFrame;
    const call = (url) => { const ev = { senderFrame: url === frame.url ? frame : { url }, sender: win.webContents, returnValue: undefined };
      if (url !== frame.url) ev.sender = { mainFrame: ev.senderFrame };
      listeners.get('cairn:get-connection')(ev); return ev.returnValue; };
    report.ipc.good = call(frame.url);
    report.ipc.foreign = call('https://evil.example/');
    try { await handlers.get('cairn:save-export-file')({ senderFrame: frame, sender: win.webContents }, { data: 1 }); report.ipc.badArgs = 'accepted'; }
    catch (e) { report.ipc.badArgs = String(e.message); }
    if (report.ipc.good) {
      const h = await fetch(report.ipc.good.apiBaseUrl + '/agents', { headers: { authorization: 'Bearer ' + report.ipc.good.token } });
      report.ipc.agentsStatus = h.status;
    }
  } catch (e) { report.error = String(e && e.stack || e); }
  app.quit();
}
setTimeout(() => readyResolve(), 0);
setTimeout(() => { report.error = 'timeout'; finish(); }, 40000);
`;

const HOOKS = String.raw`
export async function resolve(specifier, context, next) {
  if (specifier === 'electron') return { url: process.env.STUB_URL, shortCircuit: true };
  return next(specifier, context);
}
`;

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      s.close(() =>
        typeof addr === 'object' && addr ? res(addr.port) : rej(new Error('no port')),
      );
    });
  });
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'cairn-electron-main-'));
  ensureElectronBuild();
  writeFileSync(join(work, 'electron-stub.mjs'), STUB);
  writeFileSync(join(work, 'hooks.mjs'), HOOKS);
  writeFileSync(
    join(work, 'register.mjs'),
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(work, 'hooks.mjs')).href)});\n`,
  );
}, 150_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

interface StubReport {
  events: string[];
  ipc: {
    good: { apiBaseUrl: string; token: string } | null;
    foreign: unknown;
    badArgs: string;
    agentsStatus?: number;
  };
  page: { url: string; status: number; csp: string | null; hasRoot: boolean } | null;
  error?: string;
}

describe('Electron main bundle (with a recording electron stand-in)', () => {
  it('starts the engine, serves the UI to the window, validates IPC, and stops on quit', async () => {
    const port = await freePort();
    const userData = join(work, 'userData');
    const child = spawn(
      process.execPath,
      ['--import', pathToFileURL(join(work, 'register.mjs')).href, mainBundle],
      {
        cwd: root,
        env: {
          ...process.env,
          STUB_URL: pathToFileURL(join(work, 'electron-stub.mjs')).href,
          STUB_USER_DATA: userData,
          STUB_APP_PATH: root,
          CAIRN_PORT: String(port),
          CAIRN_DB_KEY: 'ab'.repeat(32),
          CAIRN_LOG_LEVEL: 'warn',
          XDG_CONFIG_HOME: join(work, 'config'),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((r) => child.on('exit', r));
    const line = out.split('\n').find((l) => l.startsWith('STUB-REPORT '));
    expect(line, `stdout: ${out}\nstderr: ${err}`).toBeDefined();
    const report = JSON.parse(line!.slice('STUB-REPORT '.length)) as StubReport;
    expect(report.error, err).toBeUndefined();
    expect(code).toBe(0);

    // The window is sandboxed and loads the engine's own UI on the configured port.
    const win = report.events.find((e) => e.startsWith('window:'))!;
    expect(JSON.parse(win.slice('window:'.length))).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    });
    expect(report.events).toContain('permissions-denied');
    expect(report.page).toMatchObject({
      url: `http://127.0.0.1:${port}/`,
      status: 200,
      hasRoot: true,
    });
    expect(report.page!.csp).toContain("default-src 'self'");

    // IPC: our page gets the connection (and the token works); a foreign frame gets nothing;
    // malformed arguments are refused before any handler runs.
    expect(report.ipc.good).toMatchObject({ apiBaseUrl: `http://127.0.0.1:${port}` });
    expect(report.ipc.agentsStatus).toBe(200);
    expect(report.ipc.foreign).toBeNull();
    expect(report.ipc.badArgs).toContain('invalid arguments');

    // Quit waits for engine.stop() (the tray goes after it), then quits for real.
    const quits = report.events.filter((e) => e === 'quit').length;
    expect(quits).toBe(2);
    expect(report.events.indexOf('tray-destroyed')).toBeGreaterThan(report.events.indexOf('quit'));
    expect(existsSync(join(userData, 'data', 'memory.sqlite'))).toBe(true);
    expect(existsSync(join(userData, 'logs', 'cairn.log'))).toBe(true);
    // The bundled transcript writer worker (its own entry beside index.js) started.
    expect(readFileSync(join(userData, 'logs', 'cairn.log'), 'utf8')).not.toMatch(
      /transcript writer (worker|stopped|failed)/,
    );
  }, 60_000);
});
