// GET /memory/export (DESIGN §9): Cairn's JSON export of agents' memory, built from the store
// in one go (identity, every pinned fact including the history newer facts superseded,
// episodes, transcript), the document `format: cairn` imports. It is built in memory, so an
// export larger than `maxBytes` is refused before anything is read, with what to do instead.
import { iso, toEpisodeDto, toPinnedDto } from '../memory-dto.ts';
import { ErrorCode } from '../../../shared/errors.ts';
import type { TranscriptRow } from '../../../shared/api.ts';
import type { ExportedAgent, ExportedFact, MemoryExport } from '../../../shared/memory-export.ts';
import { CairnError } from '../errors.ts';
import type { EngineServices } from '../services.ts';
import { listAgentSummaries } from '../store/agents.ts';
import { listEpisodes } from '../store/episodes.ts';
import { getIdentity } from '../store/identity.ts';
import { exportSizeEstimate } from '../store/memory-transfer.ts';
import { listPinned, type PinnedRecord } from '../store/pinned.ts';
import { listTranscript } from '../store/transcript.ts';

export type ExportDeps = Pick<EngineServices, 'db' | 'clock'>;

export interface ExportOptions {
  /** These agents (none: every agent Cairn knows). */
  agentIds?: readonly string[];
  /** The largest export built at once, in bytes of JSON. */
  maxBytes: number;
}

/** An export of 256 MiB is far above a typical agent's memory and fits in memory twice. */
export const DEFAULT_EXPORT_MAX_BYTES = 256 * 1024 * 1024;

/** SQLite reads a negative LIMIT as no limit (https://www.sqlite.org/lang_select.html#limitoffset). */
const ALL_ROWS = -1;

function exportedFact(r: PinnedRecord): ExportedFact {
  return {
    ...toPinnedDto(r),
    subject: r.subject,
    relation: r.relation,
    object: r.object,
    valid_from: iso(r.valid_from),
    superseded_at: iso(r.superseded_at),
    conversation_id: r.conversation_id,
    source_ids: r.source_ids,
    source_episode_id: r.source_episode_id,
  };
}

/** Oldest first, as the rows were stored: a conversation reads top to bottom. */
const byId = <T extends { id: number }>(rows: T[]): T[] => rows.sort((a, b) => a.id - b.id);

function exportAgent(deps: ExportDeps, agentId: string): ExportedAgent {
  const { db } = deps;
  const identity = getIdentity(db, agentId);
  const pinned = listPinned(db, {
    agentId,
    status: 'all',
    sort: 'created_at',
    limit: ALL_ROWS,
    offset: 0,
    history: true,
  }).items;
  const episodes = listEpisodes(db, { agentId, limit: ALL_ROWS, offset: 0 }).items;
  const transcript: TranscriptRow[] = listTranscript(db, {
    agentId,
    limit: ALL_ROWS,
    offset: 0,
    order: 'asc',
  }).items;
  return {
    id: agentId,
    identity: { ...identity, updated_at: iso(identity.updated_at) },
    pinned: byId(pinned).map(exportedFact),
    episodes: byId(episodes).map(toEpisodeDto),
    transcript: byId(transcript),
  };
}

const mib = (bytes: number) => `${Math.ceil(bytes / (1024 * 1024))} MiB`;

/** Builds the export document; refuses (400) one estimated above `maxBytes`. */
export function exportMemory(deps: ExportDeps, options: ExportOptions): MemoryExport {
  const agentIds = options.agentIds?.length
    ? [...new Set(options.agentIds)]
    : listAgentSummaries(deps.db).map((a) => a.id);
  const estimate = exportSizeEstimate(deps.db, agentIds);
  if (estimate > options.maxBytes) {
    throw new CairnError(
      ErrorCode.PayloadTooLarge,
      `This export would be about ${mib(estimate)}, more than the ${mib(options.maxBytes)} one export may hold. ` +
        (agentIds.length > 1
          ? 'Export fewer agents at a time (agent_id=…), or take an encrypted backup (GET /memory/backup).'
          : 'Take an encrypted backup instead (GET /memory/backup): it copies the whole database.'),
      // The request was fine; what it asks for is too big to build at once.
      { status: 400 },
    );
  }
  return {
    format: 'cairn-memory',
    version: 1,
    exported_at: new Date(deps.clock.now()).toISOString(),
    agents: agentIds.map((id) => exportAgent(deps, id)),
  };
}
