// The API's shapes of memory rows (src/shared/api.ts), for every transport that answers with
// them: the REST routes, MCP, the export.
import type { Episode, Identity, PinnedFact } from '../../shared/api.ts';
import type { EpisodeRecord } from './store/episodes.ts';
import type { IdentityRecord } from './store/identity.ts';
import type { PinnedRecord } from './store/pinned.ts';

export const iso = (ms: number | null): string | null =>
  ms === null ? null : new Date(ms).toISOString();

export function toPinnedDto(r: PinnedRecord): PinnedFact {
  return {
    id: r.id,
    agent_id: r.agent_id,
    content: r.content,
    salience: r.salience,
    source_count: r.source_count,
    use_count: r.use_count,
    last_used: iso(r.last_used),
    tags: r.tags,
    status: r.status,
    pinned_by_user: r.pinned_by_user,
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
  };
}

export function toEpisodeDto(r: EpisodeRecord): Episode {
  return {
    id: r.id,
    agent_id: r.agent_id,
    conversation_id: r.conversation_id,
    summary: r.summary,
    topics: r.topics,
    entities: r.entities,
    decisions: r.decisions,
    action_items: r.action_items,
    salience: r.salience,
    conversation_at: iso(r.conversation_at)!,
    last_used: iso(r.last_used),
    created_at: iso(r.created_at)!,
  };
}

export function toIdentityDto(r: IdentityRecord): Identity {
  return { ...r, updated_at: iso(r.updated_at) };
}
