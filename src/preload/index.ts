// The main window's preload (sandboxed, context-isolated). It exposes exactly the
// CairnBridge of src/shared/ipc.ts: the API base URL and token, and three native helpers.
import { contextBridge, ipcRenderer } from 'electron';
import { ConnectionInfo, ImportFileResult, IpcChannel, type CairnBridge } from '../shared/ipc.ts';

const connection = ConnectionInfo.safeParse(ipcRenderer.sendSync(IpcChannel.GetConnection));

if (connection.success) {
  const bridge: CairnBridge = {
    apiBaseUrl: connection.data.apiBaseUrl,
    token: connection.data.token,
    chooseImportFile: async () =>
      ImportFileResult.parse(await ipcRenderer.invoke(IpcChannel.ChooseImportFile)),
    saveExportFile: async (data, suggestedName) =>
      (await ipcRenderer.invoke(IpcChannel.SaveExportFile, { data, suggestedName })) === true,
    openDataFolder: async () => {
      await ipcRenderer.invoke(IpcChannel.OpenDataFolder);
    },
  };
  contextBridge.exposeInMainWorld('cairn', Object.freeze(bridge));
}
