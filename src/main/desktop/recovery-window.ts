// When the database cannot be opened with the stored key, ask for the recovery key in a
// small window. Nothing is deleted: the user can also quit and come back later.
import { BrowserWindow } from 'electron';
import { pathToFileURL } from 'node:url';
import { IpcChannel } from '../../shared/ipc.ts';
import { allowUrlPrefixes, handle } from './ipc.ts';
import { sandboxedWebPreferences } from './sandboxed-web-preferences.ts';

export interface RecoveryPromptOptions {
  /** Why we ask (shown in the window). */
  reason: string;
  preload: string;
  /** out/renderer/recovery.html */
  page: string;
  /** Tries to open the database with this recovery key. */
  tryKey(recoveryKey: string): Promise<{ ok: true } | { ok: false; message: string }>;
}

/** Resolves true once a key worked, false when the user gave up. */
export function promptRecoveryKey(options: RecoveryPromptOptions): Promise<boolean> {
  return new Promise((resolve) => {
    const pageUrl = pathToFileURL(options.page);
    pageUrl.hash = encodeURIComponent(options.reason);
    const win = new BrowserWindow({
      width: 560,
      height: 520,
      resizable: true,
      title: 'Cairn — unlock your memory',
      autoHideMenuBar: true,
      webPreferences: sandboxedWebPreferences(options.preload),
    });
    win.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
    win.webContents.on('will-navigate', (e) => e.preventDefault());

    let done = false;
    const finish = (ok: boolean) => {
      if (done) return;
      done = true;
      offSubmit();
      offCancel();
      if (!win.isDestroyed()) win.close();
      resolve(ok);
    };
    const allowed = allowUrlPrefixes([pathToFileURL(options.page).href]);
    const offSubmit = handle(IpcChannel.SubmitRecoveryKey, allowed, async ([key]) => {
      const result = await options.tryKey(key);
      if (result.ok) setImmediate(() => finish(true));
      return result;
    });
    const offCancel = handle(IpcChannel.CancelRecovery, allowed, () => {
      setImmediate(() => finish(false));
    });
    win.on('closed', () => finish(false));
    void win.loadURL(pageUrl.href);
  });
}
