// Electron entry (DESIGN §1): single instance, starts the engine in this process, the
// window, the tray, launch at login, native dialogs. Everything that matters lives in the
// engine, which never imports electron; this file wires it to the desktop.
import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { app, BrowserWindow, dialog, shell, type MessageBoxOptions } from 'electron';
import { ErrorCode } from '../shared/errors.ts';
import { ImportFileResult, IpcChannel, type ConnectionInfo } from '../shared/ipc.ts';
import { setLinuxAutostart } from './desktop/autostart-linux.ts';
import { createMainWindow } from './desktop/main-window.ts';
import { allowUrlPrefixes, handle, handleSync } from './desktop/ipc.ts';
import { promptRecoveryKey } from './desktop/recovery-window.ts';
import { createTray, type CairnTray } from './desktop/tray.ts';
import { createEngine, type Engine, type EngineConfig } from './engine/engine.ts';
import { isCairnError } from './engine/errors.ts';
import { createLogger, type Logger, type LogLevel } from './engine/logger.ts';
import { WORD_VECTORS_FILE } from './engine/vector/word-vectors-asset.ts';

const DEFAULT_PORT = 1337;
const MAX_IMPORT_BYTES = 256 * 1024 * 1024;

/** Where the bundles are: out/main/index.js → out/preload, out/renderer. */
const outDir = join(import.meta.dirname, '..');
const paths = {
  preload: join(outDir, 'preload', 'index.cjs'),
  recoveryPreload: join(outDir, 'preload', 'recovery.cjs'),
  renderer: join(outDir, 'renderer'),
  recoveryPage: join(outDir, 'renderer', 'recovery.html'),
  resources: app.isPackaged
    ? join(process.resourcesPath, 'resources')
    : join(app.getAppPath(), 'resources'),
};

function createAppLogger(logDir: string): Logger {
  mkdirSync(logDir, { recursive: true });
  const file = createWriteStream(join(logDir, 'cairn.log'), { flags: 'a' });
  const level = (process.env.CAIRN_LOG_LEVEL as LogLevel | undefined) ?? 'info';
  return createLogger({
    level,
    sink: (line) => {
      file.write(line + '\n');
      if (!app.isPackaged) process.stderr.write(line + '\n');
    },
  });
}

async function showError(title: string, message: string, detail?: string): Promise<void> {
  const options: MessageBoxOptions = { type: 'error', title, message, detail, buttons: ['OK'] };
  await dialog.showMessageBox(options);
}

interface Opened {
  engine: Engine;
  url: string;
}

/**
 * Opens the engine. A database the stored key cannot open (wrong_key, database_unreadable)
 * leads to the recovery prompt; nothing is ever deleted. Returns null when the user quits.
 */
async function openEngine(base: EngineConfig, log: Logger): Promise<Opened | null> {
  let engine: Engine;
  try {
    engine = await createEngine(base);
  } catch (err) {
    if (
      isCairnError(err) &&
      (err.code === ErrorCode.WrongKey || err.code === ErrorCode.DatabaseUnreadable)
    ) {
      log.warn('database cannot be opened with the stored key', { code: err.code });
      let recovered: Engine | null = null;
      const ok = await promptRecoveryKey({
        reason: err.message,
        preload: paths.recoveryPreload,
        page: paths.recoveryPage,
        tryKey: async (recoveryKey) => {
          try {
            recovered = await createEngine({
              ...base,
              env: { ...process.env, CAIRN_RECOVERY_KEY: recoveryKey },
            });
            return { ok: true };
          } catch (e) {
            return { ok: false, message: isCairnError(e) ? e.message : String(e) };
          }
        },
      });
      if (!ok || !recovered) return null;
      engine = recovered;
    } else if (isCairnError(err) && err.code === ErrorCode.DatabaseLocked) {
      await showError(
        'Cairn is already running',
        'The memory database is in use by another Cairn process.',
        err.message,
      );
      return null;
    } else {
      throw err;
    }
  }

  // The port setting lives in the database: honour it unless the environment fixed one.
  const wanted = engine.services.settings.get().port;
  if (base.port === undefined && wanted !== DEFAULT_PORT) {
    await engine.stop();
    return openEngine({ ...base, port: wanted }, log);
  }
  try {
    const { url } = await engine.start();
    return { engine, url };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') {
      await engine.stop();
      throw err;
    }
    const port = base.port ?? wanted;
    await engine.stop();
    const choice = await dialog.showMessageBox({
      type: 'warning',
      title: 'Port in use',
      message: `Port ${port} is already used by another program.`,
      detail:
        'Cairn can start on another free port for now (clients configured for this port will not reach it), or you can quit and free the port. The port can be changed in Settings.',
      buttons: ['Use another port', 'Quit'],
      defaultId: 0,
      cancelId: 1,
    });
    if (choice.response !== 0) return null;
    return openEngine({ ...base, port: 0 }, log);
  }
}

async function main(): Promise<void> {
  const userData = app.getPath('userData');
  const dataDir = join(userData, 'data');
  const logger = createAppLogger(join(userData, 'logs'));
  const log = logger.child('desktop');
  const devUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;

  const envPort = Number(process.env.CAIRN_PORT);
  let opened: Opened | null;
  try {
    opened = await openEngine(
      {
        dataDir,
        host: '127.0.0.1',
        port: Number.isInteger(envPort) && envPort > 0 ? envPort : undefined,
        logger,
        useKeychain: true,
        staticUiDir: paths.renderer,
        allowedOrigins: devUrl ? [new URL(devUrl).origin] : undefined,
        upstreamUrl: process.env.CAIRN_UPSTREAM_URL || undefined,
        upstreamApiKey: process.env.CAIRN_UPSTREAM_API_KEY || undefined,
        coreModel: process.env.CAIRN_CORE_MODEL || undefined,
        embedder: { wordVectorsFile: join(paths.resources, 'word-vectors', WORD_VECTORS_FILE) },
      },
      log,
    );
  } catch (err) {
    log.error('engine failed to start', { err });
    await showError(
      'Cairn could not start',
      'The memory engine failed to start. Your data was not changed.',
      `${(err as Error).message}\n\nLog: ${join(userData, 'logs', 'cairn.log')}`,
    );
    app.exit(1);
    return;
  }
  if (!opened) {
    app.exit(0);
    return;
  }
  const { engine, url } = opened;
  const services = engine.services;

  if (engine.quarantined) {
    void dialog.showMessageBox({
      type: 'warning',
      title: 'Unreadable database set aside',
      message: 'The memory database could not be read and was moved aside.',
      detail: `It was not deleted: it is in ${engine.quarantined}. Cairn started with an empty memory.`,
    });
  }
  if (engine.recoveryKey) {
    void showRecoveryKeyOnce(engine.recoveryKey);
  }

  // ---------- IPC ----------
  const pageUrl = devUrl ?? `${url}/`;
  const allowed = allowUrlPrefixes([new URL(pageUrl).origin + '/']);
  const connection: ConnectionInfo = { apiBaseUrl: url, token: services.token };
  handleSync(IpcChannel.GetConnection, allowed, () => connection);
  handle(IpcChannel.ChooseImportFile, allowed, async (_args, event) => {
    const owner = BrowserWindow.fromWebContents(event.sender);
    const options = {
      title: 'Import memory',
      properties: ['openFile' as const],
      filters: [{ name: 'Cairn memory export', extensions: ['json'] }],
    };
    const res = owner
      ? await dialog.showOpenDialog(owner, options)
      : await dialog.showOpenDialog(options);
    const file = res.filePaths[0];
    if (res.canceled || !file) return null;
    const content = readFileSync(file);
    if (content.length > MAX_IMPORT_BYTES) throw new Error('The file is too large to import.');
    return ImportFileResult.parse({
      name: file.split(/[\\/]/).pop() ?? file,
      content: content.toString('utf8'),
    });
  });
  handle(IpcChannel.SaveExportFile, allowed, async ([{ data, suggestedName }], event) => {
    const owner = BrowserWindow.fromWebContents(event.sender);
    const options = {
      title: 'Export memory',
      defaultPath: join(app.getPath('documents'), suggestedName ?? 'cairn-memory.json'),
      filters: [{ name: 'JSON', extensions: ['json'] }],
    };
    const res = owner
      ? await dialog.showSaveDialog(owner, options)
      : await dialog.showSaveDialog(options);
    if (res.canceled || !res.filePath) return false;
    writeFileSync(res.filePath, data, { mode: 0o600 });
    return true;
  });
  handle(IpcChannel.OpenDataFolder, allowed, async () => {
    await shell.openPath(dataDir);
  });

  // ---------- window ----------
  let win: BrowserWindow | null = null;
  const openWindow = () => {
    if (win && !win.isDestroyed()) {
      if (win.isMinimized()) win.restore();
      win.show();
      win.focus();
      return;
    }
    win = createMainWindow({
      url: pageUrl,
      preload: paths.preload,
      stateFile: join(userData, 'window-state.json'),
      icon: join(paths.resources, 'icon.png'),
    });
    win.on('closed', () => {
      win = null;
    });
  };
  app.on('second-instance', openWindow);
  app.on('activate', openWindow);
  // Closing the window keeps the server running in the tray.
  app.on('window-all-closed', () => {});

  // ---------- tray, launch at login ----------
  let tray: CairnTray | null = null;
  const quit = () => app.quit();
  try {
    tray = createTray({
      icon: join(paths.resources, process.platform === 'darwin' ? 'trayTemplate.png' : 'tray.png'),
      url,
      isMemoryEnabled: () => services.settings.get().enabled,
      setMemoryEnabled: (enabled) => services.settings.update({ enabled }),
      openWindow,
      openDataFolder: () => void shell.openPath(dataDir),
      quit,
    });
  } catch (err) {
    // Some Linux desktops have no tray: the window is then the only way in.
    log.warn('no tray available', { err: (err as Error).message });
  }

  const applyLoginItem = (launchAtLogin: boolean) => {
    if (process.platform === 'linux') {
      // Electron has no login items on Linux: write an XDG autostart entry instead.
      try {
        setLinuxAutostart(launchAtLogin, {
          executable: process.env.APPIMAGE || process.execPath,
          configHome: process.env.XDG_CONFIG_HOME,
        });
      } catch (err) {
        log.warn('could not update the autostart entry', { err: (err as Error).message });
      }
      return;
    }
    // Started at login: open in the tray only (the --hidden flag, read below).
    app.setLoginItemSettings({ openAtLogin: launchAtLogin, args: ['--hidden'] });
  };
  applyLoginItem(services.settings.get().launchAtLogin);
  services.settings.onChange((next, prev) => {
    if (next.launchAtLogin !== prev.launchAtLogin) applyLoginItem(next.launchAtLogin);
    if (next.enabled !== prev.enabled) tray?.refresh();
  });

  // ---------- quit: flush pending distillation, close the database ----------
  let stopping = false;
  let stopped = false;
  app.on('before-quit', (event) => {
    if (stopped) return;
    event.preventDefault();
    if (stopping) return;
    stopping = true;
    void engine
      .stop()
      .catch((err: unknown) => log.error('engine stop failed', { err }))
      .finally(() => {
        stopped = true;
        tray?.destroy();
        app.quit();
      });
  });

  const startHidden =
    process.argv.includes('--hidden') || app.getLoginItemSettings().wasOpenedAtLogin;
  if (!startHidden) openWindow();
  log.info('desktop ready', { url });
}

async function showRecoveryKeyOnce(recoveryKey: string): Promise<void> {
  const res = await dialog.showMessageBox({
    type: 'info',
    title: 'Your recovery key',
    message: 'Write down your recovery key and keep it somewhere safe.',
    detail: `${recoveryKey}\n\nYour memory is encrypted with a key kept in the OS keychain. If that key is ever lost (new computer, reset keychain), this recovery key is the only way to open your memory.`,
    buttons: ['Copy and close', 'Close'],
    defaultId: 0,
  });
  if (res.response === 0) {
    const { clipboard } = await import('electron');
    clipboard.writeText(recoveryKey);
  }
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.setAppUserModelId('dev.cairn.app');
  void app.whenReady().then(main);
}
