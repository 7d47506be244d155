// Export every agent's memory to one JSON document through the management API, and import
// such a document back (facts, identity, transcripts; episodes are re-distilled). The format
// and the export walk are shared with `cairn export` (src/shared/memory-export.ts).
import type { TranscriptRow } from '../../shared/api.ts';
import { collectMemoryExport, MemoryExport } from '../../shared/memory-export.ts';
import type { ApiClient } from './api/client.ts';

export { MemoryExport };

export async function exportMemory(
  api: ApiClient,
  onProgress: (text: string) => void = () => {},
): Promise<MemoryExport> {
  return collectMemoryExport(api, { exportedAt: new Date().toISOString(), onProgress });
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
