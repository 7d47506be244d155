import type { FastifyInstance } from 'fastify';
import { MemoryExportQuery, MemoryImportRequest } from '../../../../shared/memory-export.ts';
import { DEFAULT_EXPORT_MAX_BYTES, exportMemory } from '../../memory-transfer/export.ts';
import { importMemory } from '../../memory-transfer/import.ts';
import type { EngineServices } from '../../services.ts';
import type { TranscriptWriter } from '../../store/transcript-writer.ts';
import type { BackgroundTasks } from '../background.ts';
import { parseWith } from '../validate.ts';

export interface TransferRouteOptions {
  background: BackgroundTasks;
  writer: TranscriptWriter;
  /** POST /memory/import: as ingest (64 MiB), a large service export. */
  importBodyLimit: number;
  /** GET /memory/export: the largest document built at once (default 256 MiB). */
  exportMaxBytes?: number;
}

/**
 * GET /memory/export (Cairn's JSON export of one, several or all agents) and POST
 * /memory/import (a ChatGPT, Claude, Open WebUI or Cairn export into one agent), DESIGN §9.
 * The work is in memory-transfer/; these parse the request and shape the answer.
 */
export function registerTransferRoutes(
  app: FastifyInstance,
  services: EngineServices,
  options: TransferRouteOptions,
): void {
  app.get('/memory/export', async (request, reply) => {
    const q = parseWith(MemoryExportQuery, request.query, 'query');
    const agentIds = q.agent_id === undefined ? undefined : [q.agent_id].flat();
    const doc = exportMemory(services, {
      agentIds,
      maxBytes: options.exportMaxBytes ?? DEFAULT_EXPORT_MAX_BYTES,
    });
    const day = doc.exported_at.slice(0, 10);
    // Saved as a file by a browser or `curl -OJ`; the document holds memory in plain text.
    reply.header('content-disposition', `attachment; filename="cairn-memory-${day}.json"`);
    reply.header('cache-control', 'no-store');
    return doc;
  });

  app.post('/memory/import', { bodyLimit: options.importBodyLimit }, async (request) => {
    const body = parseWith(MemoryImportRequest, request.body);
    return importMemory(
      { ...services, writer: options.writer, background: options.background },
      body,
    );
  });
}
