// Export every agent's memory to one JSON document through the management API, and import
// such a document back (facts, identity, transcripts; episodes are re-distilled).
import { z } from 'zod';
import { Episode, Identity, PinnedFact, TranscriptRow } from '../../shared/api.ts';
import type { ApiClient } from './api/client.ts';

const PAGE = 500;

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

async function all<T>(
  fetchPage: (offset: number) => Promise<{ items: T[]; total: number }>,
): Promise<T[]> {
  const out: T[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await fetchPage(offset);
    out.push(...page.items);
    if (page.items.length === 0 || out.length >= page.total) return out;
  }
}

export async function exportMemory(
  api: ApiClient,
  onProgress: (text: string) => void = () => {},
): Promise<MemoryExport> {
  const { agents } = await api.agents();
  const result: MemoryExport = {
    format: 'cairn-memory',
    version: 1,
    exported_at: new Date().toISOString(),
    agents: [],
  };
  for (const [i, agent] of agents.entries()) {
    onProgress(`Exporting ${agent.id} (${i + 1} of ${agents.length})…`);
    const agent_id = agent.id;
    result.agents.push({
      id: agent_id,
      identity: await api.getIdentity(agent_id),
      pinned: await all((offset) =>
        api.listPinned({ agent_id, status: 'all', sort: 'created_at', limit: PAGE, offset }),
      ),
      episodes: await all((offset) => api.listEpisodes({ agent_id, limit: PAGE, offset })),
      transcript: await all((offset) => api.listTranscript({ agent_id, limit: PAGE, offset })),
    });
  }
  return result;
}

export interface ImportReport {
  agents: number;
  facts: number;
  identities: number;
  turns: number;
}

/** Pairs a conversation's messages into ingest turns (user → the assistant answer after it). */
export function toTurns(
  rows: TranscriptRow[],
): { user: string; assistant: string; date: string }[] {
  const sorted = [...rows].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id - b.id);
  const turns: { user: string; assistant: string; date: string }[] = [];
  for (const row of sorted) {
    if (row.role === 'user') turns.push({ user: row.content, assistant: '', date: row.created_at });
    else if (row.role === 'assistant' && turns.length > 0) {
      const last = turns[turns.length - 1]!;
      last.assistant = last.assistant ? `${last.assistant}\n\n${row.content}` : row.content;
    }
  }
  return turns;
}

export async function importMemory(
  api: ApiClient,
  text: string,
  onProgress: (text: string) => void = () => {},
): Promise<ImportReport> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('This file is not JSON.');
  }
  const parsed = MemoryExport.safeParse(json);
  if (!parsed.success) {
    throw new Error('This file is not a Cairn memory export (format "cairn-memory", version 1).');
  }
  const report: ImportReport = { agents: 0, facts: 0, identities: 0, turns: 0 };
  for (const agent of parsed.data.agents) {
    onProgress(`Importing ${agent.id}…`);
    report.agents++;
    if (agent.identity && (agent.identity.narrative || agent.identity.overrides.length > 0)) {
      await api.putIdentity({
        agent_id: agent.id,
        narrative: agent.identity.narrative,
        overrides: agent.identity.overrides,
      });
      report.identities++;
    }
    for (const fact of agent.pinned) {
      const created = await api.createPinned({
        agent_id: agent.id,
        content: fact.content,
        salience: fact.salience,
        tags: fact.tags,
        pinned_by_user: fact.pinned_by_user,
      });
      if (fact.status === 'disabled') {
        await api.patchPinned(created.id, agent.id, { status: 'disabled' });
      }
      report.facts++;
    }
    const byConversation = new Map<string, TranscriptRow[]>();
    for (const row of agent.transcript) {
      const list = byConversation.get(row.conversation_id) ?? [];
      list.push(row);
      byConversation.set(row.conversation_id, list);
    }
    for (const [conversation_id, rows] of byConversation) {
      const turns = toTurns(rows);
      if (turns.length === 0) continue;
      await api.ingest({ agent_id: agent.id, conversation_id, turns });
      report.turns += turns.length;
    }
  }
  return report;
}
