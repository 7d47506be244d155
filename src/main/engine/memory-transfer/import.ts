// POST /memory/import (DESIGN §9): conversation history exported from ChatGPT, Claude or Open
// WebUI, or Cairn's own export, stored for one agent. The whole document is read and checked
// first (its shape, every date), so bad input is refused with a 400 before anything is
// written. Then each conversation is recorded like an ingest batch (transcript rows with
// their own dates + one signal, durable, on the transcript writer); imported conversations
// are distilled like ingested ones, in the background so a history of thousands of
// conversations does not hold the request open. Cairn's export restores its facts, episodes
// and identity as they were instead (its transcript is not distilled again).
import type {
  ImportFormat,
  MemoryImportRequest,
  MemoryImportResponse,
} from '../../../shared/memory-export.ts';
import type { BackgroundTasks } from '../server/background.ts';
import type { EngineServices } from '../services.ts';
import { latestMessageTimes, restoreMemory } from '../store/memory-transfer.ts';
import type { TranscriptMessage } from '../store/transcript.ts';
import { rowTextsForIndex } from '../store/trash.ts';
import type { TranscriptWriter } from '../store/transcript-writer.ts';
import { type CairnAgentImport, parseCairnExport } from './cairn.ts';
import { parseChatGptExport } from './chatgpt.ts';
import { parseClaudeExport } from './claude.ts';
import { countTurns, type ImportedConversation, importError } from './imported.ts';
import { parseOpenWebUiExport } from './openwebui.ts';

export type ImportDeps = Pick<
  EngineServices,
  'db' | 'clock' | 'vectors' | 'distiller' | 'logger'
> & {
  writer: TranscriptWriter;
  background: Pick<BackgroundTasks, 'run' | 'runWhenQuiet'>;
};

type ConversationParser = (data: unknown, now: number) => ImportedConversation[];

const PARSERS: Record<Exclude<ImportFormat, 'cairn'>, ConversationParser> = {
  chatgpt: parseChatGptExport,
  claude: parseClaudeExport,
  openwebui: parseOpenWebUiExport,
};

interface Recorded {
  conversationId: string;
  messages: TranscriptMessage[];
  transcriptIds: number[];
}

/**
 * The messages of each conversation not stored yet: those newer than the conversation's
 * newest stored message (none stored: all of them).
 */
function freshMessages<M extends { at: number }>(
  deps: ImportDeps,
  agentId: string,
  conversations: readonly { conversationId: string; messages: M[] }[],
): { conversationId: string; messages: M[] }[] {
  const latest = latestMessageTimes(
    deps.db,
    agentId,
    conversations.map((c) => c.conversationId),
  );
  return conversations
    .map((c) => {
      const after = latest.get(c.conversationId);
      return {
        conversationId: c.conversationId,
        messages: after === undefined ? c.messages : c.messages.filter((m) => m.at > after),
      };
    })
    .filter((c) => c.messages.length > 0);
}

/** One conversation per writer call, each its own durable transaction (like an ingest). */
async function record(
  deps: ImportDeps,
  agentId: string,
  conversations: readonly { conversationId: string; messages: TranscriptMessage[] }[],
  distil: boolean,
  now: number,
): Promise<Recorded[]> {
  const recorded: Recorded[] = [];
  for (const c of conversations) {
    const { transcriptIds } = await deps.writer.record(
      { agentId, conversationId: c.conversationId, messages: c.messages, now, distil },
      { durable: true },
    );
    recorded.push({ ...c, transcriptIds });
  }
  return recorded;
}

function indexTranscript(deps: ImportDeps, agentId: string, recorded: readonly Recorded[]): void {
  const vectors = deps.vectors;
  if (!vectors || recorded.length === 0) return;
  deps.background.run('index-import', () =>
    vectors.indexRows(
      'transcript',
      recorded.flatMap((c) =>
        c.transcriptIds.map((id, i) => ({ id, agentId, text: c.messages[i]!.content })),
      ),
    ),
  );
}

/** Same conversation twice in one file (a service's duplicate): one conversation, in order. */
function mergeDuplicates(conversations: ImportedConversation[]): ImportedConversation[] {
  const byId = new Map<string, ImportedConversation>();
  for (const c of conversations) {
    const seen = byId.get(c.conversationId);
    if (seen) seen.messages.push(...c.messages);
    else byId.set(c.conversationId, { ...c, messages: [...c.messages] });
  }
  return [...byId.values()];
}

async function importConversations(
  deps: ImportDeps,
  agentId: string,
  format: Exclude<ImportFormat, 'cairn'>,
  data: unknown,
): Promise<MemoryImportResponse> {
  const now = deps.clock.now();
  const parsed = PARSERS[format](data, now);
  if (parsed.length === 0) throw importError(format, 'data is an empty list: nothing to import');
  const withText = mergeDuplicates(parsed.filter((c) => c.messages.length > 0));
  if (withText.length === 0) {
    throw importError(format, 'no conversation in data has a user or assistant message with text');
  }
  const fresh = freshMessages(deps, agentId, withText).map((c) => ({
    conversationId: c.conversationId,
    messages: c.messages.map((m) => ({ role: m.role, content: m.content, createdAt: m.at })),
  }));
  const recorded = await record(deps, agentId, fresh, true, now);
  indexTranscript(deps, agentId, recorded);
  if (recorded.length > 0) {
    // Once the answer is out and the server is quiet, one conversation after the other (the
    // distiller's queue runs them so anyway), yielding between them so requests that arrive
    // meanwhile are served; a failure leaves that conversation's signal pending, retried like
    // any other (DESIGN §6).
    deps.background.runWhenQuiet('distil-import', async () => {
      const log = deps.logger.child('import');
      for (const c of recorded) {
        await new Promise((resolve) => setImmediate(resolve));
        try {
          await deps.distiller.distilNow(agentId, c.conversationId);
        } catch (err) {
          log.warn('distillation after import failed', { err: (err as Error).message });
        }
      }
    });
  }
  return {
    conversations: recorded.length,
    turns: fresh.reduce((n, c) => n + countTurns(c.messages), 0),
  };
}

async function importCairn(
  deps: ImportDeps,
  agentId: string,
  data: unknown,
): Promise<MemoryImportResponse> {
  const now = deps.clock.now();
  const doc: CairnAgentImport = parseCairnExport(data, now);
  const fresh = freshMessages(deps, agentId, doc.conversations);
  const recorded = await record(
    deps,
    agentId,
    fresh.map((c) => ({
      conversationId: c.conversationId,
      messages: c.messages.map((m) => ({ role: m.role, content: m.content, createdAt: m.at })),
    })),
    // Its facts and episodes come with it: distilling the transcript again would only
    // repeat them.
    false,
    now,
  );
  const transcriptIds = new Map<number, number>();
  fresh.forEach((c, i) =>
    c.messages.forEach((m, j) => transcriptIds.set(m.exportId, recorded[i]!.transcriptIds[j]!)),
  );
  const restored = restoreMemory(
    deps.db,
    {
      agentId,
      narrative: doc.narrative,
      overrides: doc.overrides,
      episodes: doc.episodes,
      facts: doc.facts,
      transcriptIds,
    },
    now,
  );
  indexTranscript(deps, agentId, recorded);
  const vectors = deps.vectors;
  if (vectors && (restored.factIds.length > 0 || restored.episodeIds.length > 0)) {
    deps.background.run('index-import-memory', async () => {
      await vectors.indexRows(
        'pinned',
        rowTextsForIndex(deps.db, 'pinned', agentId, restored.factIds),
      );
      await vectors.indexRows(
        'episode',
        rowTextsForIndex(deps.db, 'episode', agentId, restored.episodeIds),
      );
    });
  }
  return {
    conversations: recorded.length,
    turns: fresh.reduce((n, c) => n + countTurns(c.messages), 0),
    facts: restored.factIds.length,
    episodes: restored.episodeIds.length,
  };
}

/** Imports `request.data` for `request.agent_id`; a 400 (nothing written) for bad input. */
export async function importMemory(
  deps: ImportDeps,
  request: MemoryImportRequest,
): Promise<MemoryImportResponse> {
  const result =
    request.format === 'cairn'
      ? await importCairn(deps, request.agent_id, request.data)
      : await importConversations(deps, request.agent_id, request.format, request.data);
  deps.logger.child('import').info('imported', {
    format: request.format,
    conversations: result.conversations,
    turns: result.turns,
  });
  return result;
}
