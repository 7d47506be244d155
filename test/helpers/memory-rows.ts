// Memory rows for tests, written through the real repositories (store/episodes.ts,
// store/pinned.ts): a test names what it is about, and everything else takes a plain default
// (no lists, salience 0.5, not pinned by the user, no source, no conversation).
import { insertEpisode, type EpisodeInput } from '../../src/main/engine/store/episodes.ts';
import type { Db } from '../../src/main/engine/store/db.ts';
import { insertPinned, type PinnedInput } from '../../src/main/engine/store/pinned.ts';

/** Stores an episode at `storedAt` (also its conversation's time unless given); returns its id. */
export function addEpisode(
  db: Db,
  episode: Pick<EpisodeInput, 'agentId' | 'summary'> & Partial<EpisodeInput>,
  storedAt: number,
): number {
  return insertEpisode(
    db,
    {
      conversationId: null,
      topics: [],
      entities: [],
      decisions: [],
      actionItems: [],
      salience: 0.5,
      conversationAt: storedAt,
      ...episode,
    },
    storedAt,
  );
}

/** Stores a pinned fact at `at`; returns its id. */
export function addFact(
  db: Db,
  fact: Pick<PinnedInput, 'agentId' | 'content'> & Partial<PinnedInput>,
  at: number,
): number {
  return insertPinned(
    db,
    { salience: 0.5, tags: [], pinnedByUser: false, sourceEpisodeId: null, ...fact },
    at,
  );
}
