// Cairn's JSON export of agents' memory (DESIGN §9) and the import of conversation history:
// the document `GET /memory/export` answers (what `cairn export` and the UI's Export write,
// and `format: cairn` imports), and the shapes of `POST /memory/import`. Shared by the
// engine, the renderer and the CLI.
import { z } from 'zod';
import { agentId, Episode, Identity, PinnedFact, TranscriptRow } from './api.ts';

/**
 * A pinned fact as exported: the API's fact plus what a faithful round trip needs (the typed
 * triple and its dates, facts a newer one superseded, and where the fact came from). The
 * extra fields are optional so an export written before they existed still imports.
 */
export const ExportedFact = PinnedFact.extend({
  subject: z.string().nullable().optional(),
  relation: z.string().nullable().optional(),
  object: z.string().nullable().optional(),
  valid_from: z.string().nullable().optional(),
  superseded_at: z.string().nullable().optional(),
  conversation_id: z.string().nullable().optional(),
  /** Ids of the transcript rows (in this same export) the fact was read from. */
  source_ids: z.array(z.number().int()).nullable().optional(),
  /** Id of the episode (in this same export) the fact was distilled with. */
  source_episode_id: z.number().int().nullable().optional(),
});
export type ExportedFact = z.infer<typeof ExportedFact>;

export const ExportedAgent = z.object({
  id: z.string().min(1),
  identity: Identity.nullable(),
  pinned: z.array(ExportedFact),
  episodes: z.array(Episode),
  transcript: z.array(TranscriptRow),
});
export type ExportedAgent = z.infer<typeof ExportedAgent>;

export const MemoryExport = z.object({
  format: z.literal('cairn-memory'),
  version: z.literal(1),
  exported_at: z.string(),
  agents: z.array(ExportedAgent),
});
export type MemoryExport = z.infer<typeof MemoryExport>;

/** `GET /memory/export?agent_id=a&agent_id=b`: those agents; none given: every agent. */
export const MemoryExportQuery = z
  .object({
    agent_id: z
      .union([agentId, z.array(agentId).max(1000, 'at most 1000 agent_id values')])
      .optional(),
  })
  .strict();

/** Where an import comes from: the conversations file of each service's data export. */
export const ImportFormat = z.enum(['chatgpt', 'claude', 'openwebui', 'cairn']);
export type ImportFormat = z.infer<typeof ImportFormat>;

export const IMPORT_FORMAT_LABELS: Record<ImportFormat, string> = {
  cairn: 'Cairn export',
  chatgpt: 'ChatGPT (conversations.json)',
  claude: 'Claude (conversations.json)',
  openwebui: 'Open WebUI (chat export)',
};

/** `POST /memory/import`: `data` is the export file's JSON, as the service wrote it. */
export const MemoryImportRequest = z
  .object({
    agent_id: agentId,
    format: ImportFormat,
    data: z.unknown().refine((v) => v !== undefined && v !== null, {
      message: "data is required: the export file's JSON",
    }),
  })
  .strict();
export type MemoryImportRequest = z.infer<typeof MemoryImportRequest>;

export const MemoryImportResponse = z.object({
  /** Conversations that brought new messages (one already imported adds nothing). */
  conversations: z.number().int(),
  /** Exchanges stored: a user message with the answers that follow it. */
  turns: z.number().int(),
  /** Cairn format only: pinned facts and episodes restored as they were. */
  facts: z.number().int().optional(),
  episodes: z.number().int().optional(),
});
export type MemoryImportResponse = z.infer<typeof MemoryImportResponse>;
