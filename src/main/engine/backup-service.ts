// Encrypted backups for GET /memory/backup: one at a time, the copy written off the request
// thread (store/db-maintenance.ts) into a temporary file only its owner can read, and that
// file removed on every path (downloaded, aborted, failed, shut down; a crash leaves one
// that the next start removes).
import { statSync } from 'node:fs';
import { ErrorCode } from '../../shared/errors.ts';
import { CairnError } from './errors.ts';
import type { Logger } from './logger.ts';
import {
  createBackupTempFile,
  removeBackupTempFile,
  removeStaleBackupTempFiles,
} from './store/backup.ts';
import type { DbMaintenance } from './store/db-maintenance.ts';

export interface BackupFile {
  /** The encrypted copy, complete. */
  path: string;
  size: number;
  /** Removes the copy and lets the next backup start (safe to call more than once). */
  release(): void;
}

export interface BackupService {
  /**
   * Writes an encrypted copy of the database to a temporary file. While another backup is
   * being written or downloaded: 409 at once. A second copy would double the disk space
   * and I/O for the same data a moment later, and waiting would tie the request to
   * however long another client takes to download; the caller can retry.
   */
  start(): Promise<BackupFile>;
  /**
   * Shutdown: removes the copy of a backup being downloaded at once, and that of a copy still
   * being written as soon as the copy returns (removed earlier, SQLite would write a new file
   * where it was), and resolves then; later calls to start() fail.
   */
  close(): Promise<void>;
}

export interface BackupServiceOptions {
  dataDir: string;
  maintenance: Pick<DbMaintenance, 'copyTo'>;
  logger: Logger;
}

export function createBackupService(options: BackupServiceOptions): BackupService {
  const log = options.logger.child('backup');
  const stale = removeStaleBackupTempFiles(options.dataDir);
  if (stale > 0)
    log.info('removed temporary backup files left by an earlier run', { files: stale });

  let active: BackupFile | null = null;
  /** The copy of `active` is being written (its file must stay until the copy returns). */
  let copying = false;
  /** Resolves when the copy being written has returned and its outcome was handled. */
  let copyDone: Promise<void> = Promise.resolve();
  let closed = false;

  function shuttingDown(): CairnError {
    return new CairnError(ErrorCode.Conflict, 'Cairn is shutting down: retry once it is back.', {
      status: 503,
    });
  }

  return {
    async start() {
      if (closed) throw shuttingDown();
      if (active) {
        throw new CairnError(
          ErrorCode.Conflict,
          'A backup is already being written or downloaded: retry once it has finished.',
        );
      }
      let released = false;
      const file: BackupFile = {
        path: '',
        size: 0,
        release() {
          if (released) return;
          released = true;
          if (file.path !== '') removeBackupTempFile(file.path);
          if (active === file) active = null;
        },
      };
      // Taken before the first await, so a second request sees it.
      active = file;
      copying = true;
      let copied!: () => void;
      copyDone = new Promise((resolve) => (copied = resolve));
      try {
        file.path = createBackupTempFile(options.dataDir);
        await options.maintenance.copyTo(file.path);
        copying = false;
        // Decided before anything else can run: shutdown waits for the copy to return, then
        // goes on at once, and the copy must be gone by then.
        if (closed) throw shuttingDown();
        file.size = statSync(file.path).size;
      } catch (err) {
        copying = false;
        file.release();
        if (closed) throw shuttingDown();
        log.error('backup failed', { code: (err as { code?: string }).code ?? null });
        throw new CairnError(ErrorCode.Internal, 'The backup could not be written.', {
          cause: err,
        });
      } finally {
        copied();
      }
      log.info('backup written', { bytes: file.size });
      return file;
    },
    close() {
      closed = true;
      if (!copying) active?.release();
      return copyDone;
    },
  };
}
