// Every IPC channel between the Electron main process and the preload, in one place, with
// the zod schema of what may cross it. The renderer never sees these: it gets the small
// `CairnBridge` API through contextBridge and talks to the engine over HTTP.
import { z } from 'zod';

export const IpcChannel = {
  /** Synchronous, at preload start: base URL and token of the local API. */
  GetConnection: 'cairn:get-connection',
  ChooseImportFile: 'cairn:choose-import-file',
  SaveExportFile: 'cairn:save-export-file',
  OpenDataFolder: 'cairn:open-data-folder',
  /** Recovery prompt window: the user submits a recovery key, or gives up. */
  SubmitRecoveryKey: 'cairn:submit-recovery-key',
  CancelRecovery: 'cairn:cancel-recovery',
} as const;
export type IpcChannel = (typeof IpcChannel)[keyof typeof IpcChannel];

export const ConnectionInfo = z.object({
  apiBaseUrl: z.string().url(),
  token: z.string().min(1),
});
export type ConnectionInfo = z.infer<typeof ConnectionInfo>;

/** Arguments of each channel (the sender passes exactly one value or none). */
export const IpcArgs = {
  [IpcChannel.GetConnection]: z.tuple([]),
  [IpcChannel.ChooseImportFile]: z.tuple([]),
  [IpcChannel.SaveExportFile]: z.tuple([
    z.object({
      data: z.string().max(512 * 1024 * 1024),
      suggestedName: z
        .string()
        .max(200)
        .regex(/^[\w.\- ]+$/, 'file name must be plain')
        .optional(),
    }),
  ]),
  [IpcChannel.OpenDataFolder]: z.tuple([]),
  [IpcChannel.SubmitRecoveryKey]: z.tuple([z.string().trim().min(1).max(500)]),
  [IpcChannel.CancelRecovery]: z.tuple([]),
} satisfies Record<IpcChannel, z.ZodType>;

export const ImportFileResult = z.object({ name: z.string(), content: z.string() }).nullable();
export type ImportFileResult = z.infer<typeof ImportFileResult>;

/** What the preload exposes as `window.cairn` (and nothing more). */
export interface CairnBridge {
  readonly apiBaseUrl: string;
  readonly token: string;
  chooseImportFile(): Promise<ImportFileResult>;
  saveExportFile(data: string, suggestedName?: string): Promise<boolean>;
  openDataFolder(): Promise<void>;
}

/** What the recovery prompt window's preload exposes as `window.cairnRecovery`. */
export interface RecoveryBridge {
  submit(recoveryKey: string): Promise<{ ok: boolean; message?: string }>;
  cancel(): Promise<void>;
}
