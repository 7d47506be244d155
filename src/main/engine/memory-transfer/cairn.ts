// Cairn's own export (GET /memory/export, `cairn export`) read back for one agent: its
// transcript grouped by conversation, its episodes and facts with their own values, its
// identity. Every date is checked like an ingest date before anything is written.
import { type ExportedAgent, MemoryExport } from '../../../shared/memory-export.ts';
import type { RestoredEpisode, RestoredFact } from '../store/memory-transfer.ts';
import type { TranscriptRole } from '../store/transcript.ts';
import { checkedIsoTime, importError, parseFormat } from './imported.ts';

export interface CairnMessage {
  /** The row's id in the export (facts name their sources by it). */
  exportId: number;
  role: TranscriptRole;
  content: string;
  at: number;
}

export interface CairnAgentImport {
  conversations: { conversationId: string; messages: CairnMessage[] }[];
  episodes: RestoredEpisode[];
  facts: RestoredFact[];
  narrative: string;
  overrides: string[];
}

/** The one agent an import request restores (the request names the agent it goes to). */
function singleAgent(doc: MemoryExport): ExportedAgent {
  if (doc.agents.length === 1) return doc.agents[0]!;
  if (doc.agents.length === 0) throw importError('cairn', 'data.agents is empty');
  const ids = doc.agents
    .slice(0, 5)
    .map((a) => `"${a.id.slice(0, 40)}"`)
    .join(', ');
  throw importError(
    'cairn',
    `data.agents holds ${doc.agents.length} agents (${ids}${doc.agents.length > 5 ? ', …' : ''}); ` +
      'import one agent per request (export with ?agent_id=…, or send a document with that agent alone)',
  );
}

function readTranscript(agent: ExportedAgent, now: number): CairnAgentImport['conversations'] {
  const byConversation = new Map<string, CairnMessage[]>();
  agent.transcript.forEach((row, i) => {
    const at = checkedIsoTime(
      'cairn',
      row.created_at,
      `data.agents.0.transcript.${i}.created_at`,
      now,
    );
    const list = byConversation.get(row.conversation_id) ?? [];
    list.push({ exportId: row.id, role: row.role, content: row.content, at });
    byConversation.set(row.conversation_id, list);
  });
  return [...byConversation].map(([conversationId, messages]) => ({
    conversationId,
    messages: messages.sort((a, b) => a.at - b.at || a.exportId - b.exportId),
  }));
}

function readEpisodes(agent: ExportedAgent, now: number): RestoredEpisode[] {
  return agent.episodes.map((e, i) => {
    const time = (text: string, field: string) =>
      checkedIsoTime('cairn', text, `data.agents.0.episodes.${i}.${field}`, now);
    return {
      exportId: e.id,
      conversationId: e.conversation_id,
      summary: e.summary,
      topics: e.topics,
      entities: e.entities,
      decisions: e.decisions,
      actionItems: e.action_items,
      salience: e.salience,
      conversationAt: time(e.conversation_at, 'conversation_at'),
      lastUsed: e.last_used === null ? null : time(e.last_used, 'last_used'),
    };
  });
}

function readFacts(agent: ExportedAgent, now: number): RestoredFact[] {
  return agent.pinned.map((f, i) => {
    const time = (text: string, field: string) =>
      checkedIsoTime('cairn', text, `data.agents.0.pinned.${i}.${field}`, now);
    const optionalTime = (text: string | null | undefined, field: string) =>
      text == null ? null : time(text, field);
    return {
      content: f.content,
      salience: f.salience,
      sourceCount: f.source_count,
      useCount: f.use_count,
      lastUsed: optionalTime(f.last_used, 'last_used'),
      tags: f.tags,
      status: f.status,
      pinnedByUser: f.pinned_by_user,
      createdAt: time(f.created_at, 'created_at'),
      updatedAt: time(f.updated_at, 'updated_at'),
      typed:
        f.subject && f.relation && f.object
          ? { subject: f.subject, relation: f.relation, object: f.object }
          : null,
      validFrom: optionalTime(f.valid_from, 'valid_from'),
      supersededAt: optionalTime(f.superseded_at, 'superseded_at'),
      conversationId: f.conversation_id ?? null,
      sourceIds: f.source_ids ?? null,
      sourceEpisodeId: f.source_episode_id ?? null,
    };
  });
}

/** Reads a Cairn export holding one agent; throws a 400 naming what is wrong. */
export function parseCairnExport(data: unknown, now: number): CairnAgentImport {
  const agent = singleAgent(parseFormat('cairn', MemoryExport, data));
  for (const [i, f] of agent.pinned.entries()) {
    if (f.content.trim() === '')
      throw importError('cairn', `data.agents.0.pinned.${i}.content is empty`);
    if (f.salience < 0 || f.salience > 1) {
      throw importError('cairn', `data.agents.0.pinned.${i}.salience must be 0 to 1`);
    }
  }
  for (const [i, e] of agent.episodes.entries()) {
    if (e.salience < 0 || e.salience > 1) {
      throw importError('cairn', `data.agents.0.episodes.${i}.salience must be 0 to 1`);
    }
  }
  return {
    conversations: readTranscript(agent, now),
    episodes: readEpisodes(agent, now),
    facts: readFacts(agent, now),
    narrative: agent.identity?.narrative ?? '',
    overrides: agent.identity?.overrides ?? [],
  };
}
