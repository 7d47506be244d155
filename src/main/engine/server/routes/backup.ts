// GET /memory/backup: an encrypted copy of the whole database, for the Settings page's
// "Download encrypted backup". The copy is written off the request thread into a temporary
// file beside the database (same disk, owner-only), streamed, then removed, also when the
// client goes away mid-download (backup-service.ts). Restoring is a file operation done with
// Cairn stopped: the copy replaces memory.sqlite in the data folder.
import { createReadStream } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { EngineServices } from '../../services.ts';

export function registerBackupRoutes(app: FastifyInstance, services: EngineServices): void {
  app.get('/memory/backup', async (_request, reply) => {
    const backup = await services.backups.start();
    // 1 MiB reads instead of 64 KiB: a 300 MB download is 300 turns of this thread's event
    // loop instead of 4,800, so requests served meanwhile wait behind fewer of them.
    const stream = createReadStream(backup.path, { highWaterMark: 1024 * 1024 });
    // The one place the copy is removed once streaming started: the stream closes when the
    // download ends, fails, or the client leaves (fastify destroys it then, also when the
    // client left while the copy was being written).
    stream.once('close', backup.release);
    const stamp = new Date(services.clock.now()).toISOString().slice(0, 10);
    return reply
      .header('content-type', 'application/vnd.sqlite3')
      .header('content-length', String(backup.size))
      .header('content-disposition', `attachment; filename="cairn-backup-${stamp}.sqlite"`)
      .header('cache-control', 'no-store')
      .send(stream);
  });
}
