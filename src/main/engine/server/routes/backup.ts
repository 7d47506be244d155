// GET /memory/backup: an encrypted copy of the whole database, for the Settings page's
// "Download encrypted backup". The copy is written next to the database (same disk, same
// folder permissions), streamed, then deleted. Restoring is a file operation done with Cairn
// stopped: the copy replaces memory.sqlite in the data folder.
import { randomUUID } from 'node:crypto';
import { createReadStream, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { ErrorCode } from '../../../../shared/errors.ts';
import { CairnError } from '../../errors.ts';
import type { EngineServices } from '../../services.ts';
import { writeEncryptedCopy } from '../../store/backup.ts';

export function registerBackupRoutes(app: FastifyInstance, services: EngineServices): void {
  const log = services.logger.child('backup');

  app.get('/memory/backup', async (_request, reply) => {
    const path = join(services.dataDir, `.backup-${randomUUID()}.sqlite`);
    const cleanup = () => rmSync(path, { force: true });
    let size: number;
    try {
      writeEncryptedCopy(services.db, path);
      size = statSync(path).size;
    } catch (err) {
      cleanup();
      log.error('backup failed', { err: (err as Error).message });
      throw new CairnError(ErrorCode.Internal, 'The backup could not be written.', { cause: err });
    }
    const stream = createReadStream(path);
    stream.on('close', cleanup);
    const stamp = new Date(services.clock.now()).toISOString().slice(0, 10);
    log.info('backup written', { bytes: size });
    return reply
      .header('content-type', 'application/vnd.sqlite3')
      .header('content-length', String(size))
      .header('content-disposition', `attachment; filename="cairn-backup-${stamp}.sqlite"`)
      .header('cache-control', 'no-store')
      .send(stream);
  });
}
