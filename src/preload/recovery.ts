// Preload of the recovery prompt window: submit a recovery key, or give up.
import { contextBridge, ipcRenderer } from 'electron';
import { IpcChannel, type RecoveryBridge } from '../shared/ipc.ts';

const bridge: RecoveryBridge = {
  submit: async (recoveryKey) => {
    const result: unknown = await ipcRenderer.invoke(IpcChannel.SubmitRecoveryKey, recoveryKey);
    if (result && typeof result === 'object' && 'ok' in result) {
      const r = result as { ok: unknown; message?: unknown };
      return {
        ok: r.ok === true,
        message: typeof r.message === 'string' ? r.message : undefined,
      };
    }
    return { ok: false, message: 'Unexpected answer from Cairn.' };
  },
  cancel: async () => {
    await ipcRenderer.invoke(IpcChannel.CancelRecovery);
  },
};
contextBridge.exposeInMainWorld('cairnRecovery', Object.freeze(bridge));
