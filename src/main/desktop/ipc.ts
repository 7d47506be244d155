// IPC between the preloads and the main process. Every handler checks the channel's
// arguments with its zod schema (src/shared/ipc.ts) and the sender: only the top frame of
// our own windows, on a URL we loaded, may call (VS Code / Mattermost practice).
import { ipcMain, type IpcMainEvent, type IpcMainInvokeEvent, type WebFrameMain } from 'electron';
import type { z } from 'zod';
import { IpcArgs, type IpcChannel } from '../../shared/ipc.ts';

export type SenderCheck = (frameUrl: string) => boolean;

/** Allows frames whose URL starts with one of these prefixes (an origin + '/' or a file URL). */
export function allowUrlPrefixes(prefixes: string[]): SenderCheck {
  return (url) => prefixes.some((p) => url === p || url.startsWith(p));
}

function checkSender(
  channel: string,
  event: IpcMainEvent | IpcMainInvokeEvent,
  allowed: SenderCheck,
): void {
  const frame: WebFrameMain | null = event.senderFrame;
  if (!frame || frame !== event.sender.mainFrame || !allowed(frame.url)) {
    throw new Error(`IPC ${channel} refused: unexpected sender`);
  }
}

function parseArgs<C extends IpcChannel>(
  channel: C,
  args: unknown[],
): z.infer<(typeof IpcArgs)[C]> {
  const parsed = IpcArgs[channel].safeParse(args);
  if (!parsed.success) throw new Error(`IPC ${channel} refused: invalid arguments`);
  return parsed.data as z.infer<(typeof IpcArgs)[C]>;
}

/** ipcMain.handle with sender and argument validation. Returns the unregister function. */
export function handle<C extends IpcChannel>(
  channel: C,
  allowed: SenderCheck,
  fn: (args: z.infer<(typeof IpcArgs)[C]>, event: IpcMainInvokeEvent) => unknown,
): () => void {
  ipcMain.handle(channel, (event, ...args: unknown[]) => {
    checkSender(channel, event, allowed);
    return fn(parseArgs(channel, args), event);
  });
  return () => ipcMain.removeHandler(channel);
}

/** A synchronous channel (ipcRenderer.sendSync): used once, at preload start. */
export function handleSync<C extends IpcChannel>(
  channel: C,
  allowed: SenderCheck,
  fn: (args: z.infer<(typeof IpcArgs)[C]>, event: IpcMainEvent) => unknown,
): () => void {
  const listener = (event: IpcMainEvent, ...args: unknown[]) => {
    try {
      checkSender(channel, event, allowed);
      event.returnValue = fn(parseArgs(channel, args), event);
    } catch {
      event.returnValue = null;
    }
  };
  ipcMain.on(channel, listener);
  return () => ipcMain.removeListener(channel, listener);
}
