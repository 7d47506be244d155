// Cairn's JSON export of agents' memory (DESIGN §9): the document the UI's Export button and
// `cairn export` write, and the UI's Import (and `format: cairn`) reads. The format and the
// walk through the management API that collects it live here, shared by the renderer and
// the CLI; each passes its own client of the API.
import { z } from 'zod';
import { Episode, Identity, PinnedFact, TranscriptRow } from './api.ts';

export const MemoryExport = z.object({
  format: z.literal('cairn-memory'),
  version: z.literal(1),
  exported_at: z.string(),
  agents: z.array(
    z.object({
      id: z.string().min(1),
      identity: Identity.nullable(),
      pinned: z.array(PinnedFact),
      episodes: z.array(Episode),
      transcript: z.array(TranscriptRow),
    }),
  ),
});
export type MemoryExport = z.infer<typeof MemoryExport>;

interface Page<T> {
  items: T[];
  total: number;
}

/** The calls of the management API an export needs (the renderer's ApiClient has them). */
export interface ExportSource {
  agents(): Promise<{ agents: { id: string }[] }>;
  getIdentity(agentId: string): Promise<Identity>;
  listPinned(q: {
    agent_id: string;
    status: 'all';
    sort: 'created_at';
    limit: number;
    offset: number;
  }): Promise<Page<PinnedFact>>;
  listEpisodes(q: { agent_id: string; limit: number; offset: number }): Promise<Page<Episode>>;
  listTranscript(q: {
    agent_id: string;
    limit: number;
    offset: number;
  }): Promise<Page<TranscriptRow>>;
}

/** Rows per request: the API's largest page. */
export const EXPORT_PAGE = 500;

async function all<T>(fetchPage: (offset: number) => Promise<Page<T>>): Promise<T[]> {
  const out: T[] = [];
  for (let offset = 0; ; offset += EXPORT_PAGE) {
    const page = await fetchPage(offset);
    out.push(...page.items);
    if (page.items.length === 0 || out.length >= page.total) return out;
  }
}

export interface CollectOptions {
  /** Only these agents (default: every agent Cairn knows). */
  agentIds?: readonly string[];
  /** When the export was made (ISO 8601). */
  exportedAt: string;
  onProgress?: (text: string) => void;
}

/** Reads every memory of the chosen agents through the API into one export document. */
export async function collectMemoryExport(
  api: ExportSource,
  options: CollectOptions,
): Promise<MemoryExport> {
  const ids = options.agentIds ?? (await api.agents()).agents.map((a) => a.id);
  const result: MemoryExport = {
    format: 'cairn-memory',
    version: 1,
    exported_at: options.exportedAt,
    agents: [],
  };
  for (const [i, agent_id] of ids.entries()) {
    options.onProgress?.(`Exporting ${agent_id} (${i + 1} of ${ids.length})…`);
    result.agents.push({
      id: agent_id,
      identity: await api.getIdentity(agent_id),
      pinned: await all((offset) =>
        api.listPinned({ agent_id, status: 'all', sort: 'created_at', limit: EXPORT_PAGE, offset }),
      ),
      episodes: await all((offset) => api.listEpisodes({ agent_id, limit: EXPORT_PAGE, offset })),
      transcript: await all((offset) =>
        api.listTranscript({ agent_id, limit: EXPORT_PAGE, offset }),
      ),
    });
  }
  return result;
}
