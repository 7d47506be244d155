// Export every agent's memory to one JSON document (the engine builds it: GET /memory/export)
// and import a file back (POST /memory/import): Cairn's own export, each agent under its own
// id with its facts, episodes, identity and transcript as they were; or a ChatGPT, Claude or
// Open WebUI export into the agent the user names, distilled like an ingest.
import {
  type ImportFormat,
  MemoryExport,
  type MemoryImportResponse,
} from '../../shared/memory-export.ts';
import type { ApiClient } from './api/client.ts';

export { MemoryExport };

export async function exportMemory(api: ApiClient): Promise<MemoryExport> {
  return api.exportMemory();
}

export interface ImportReport {
  agents: number;
  conversations: number;
  turns: number;
  facts: number;
  episodes: number;
}

export interface ImportChoice {
  format: ImportFormat;
  /** The agent a service export goes to (a Cairn export keeps its own agents). */
  agentId: string;
  /** The file's text. */
  text: string;
}

function add(report: ImportReport, r: MemoryImportResponse): void {
  report.agents++;
  report.conversations += r.conversations;
  report.turns += r.turns;
  report.facts += r.facts ?? 0;
  report.episodes += r.episodes ?? 0;
}

export async function importMemory(
  api: ApiClient,
  choice: ImportChoice,
  onProgress: (text: string) => void = () => {},
): Promise<ImportReport> {
  let data: unknown;
  try {
    data = JSON.parse(choice.text.replace(/^\uFEFF/, ''));
  } catch {
    throw new Error('This file is not JSON.');
  }
  const report: ImportReport = { agents: 0, conversations: 0, turns: 0, facts: 0, episodes: 0 };
  if (choice.format !== 'cairn') {
    const agentId = choice.agentId.trim();
    if (agentId === '') throw new Error('Name the agent the conversations are for.');
    onProgress(`Importing into ${agentId}…`);
    add(report, await api.importMemory({ agent_id: agentId, format: choice.format, data }));
    return report;
  }
  const parsed = MemoryExport.safeParse(data);
  if (!parsed.success) {
    throw new Error('This file is not a Cairn memory export (format "cairn-memory", version 1).');
  }
  // The route restores one agent per request: each agent of the file under its own id.
  for (const agent of parsed.data.agents) {
    onProgress(`Importing ${agent.id}…`);
    add(
      report,
      await api.importMemory({
        agent_id: agent.id,
        format: 'cairn',
        data: { ...parsed.data, agents: [agent] },
      }),
    );
  }
  return report;
}
