import { describe, expect, it } from 'vitest';
import { databasePerTest } from '../../../../test/helpers/database-per-test.ts';
import { insertEpisode } from './episodes.ts';
import { putIdentity, getIdentity } from './identity.ts';
import type { Db } from './db.ts';
import { insertPinned } from './pinned.ts';
import { recordTurn } from './transcript.ts';
import {
  allRowIdsOfAgent,
  createTrashEntry,
  episodeIdsOfConversation,
  factIdsOnlyFrom,
  listTrash,
  moveRowsToTrash,
  purgeTrashBefore,
  restoreTrashEntry,
  signalIdsOfConversation,
  transcriptIdsOfConversation,
} from './trash.ts';

const db = databasePerTest();

const rowsOf = (d: Db, table: string, agentId: string) =>
  d.prepare(`SELECT * FROM ${table} WHERE agent_id = ? ORDER BY id`).all(agentId);
const ftsHits = (d: Db, q: string) =>
  d
    .prepare('SELECT rowid FROM transcript_stem_fts WHERE transcript_stem_fts MATCH ?')
    .pluck()
    .all(q) as number[];

function seedConversation(d: Db, agentId: string, conversationId: string, words: string) {
  const turn = recordTurn(d, {
    agentId,
    conversationId,
    messages: [
      { role: 'user', content: `I adopted a ${words}`, createdAt: 1_000 },
      { role: 'assistant', content: 'Lovely!', createdAt: 1_001 },
    ],
    now: 1_002,
  });
  const episode = insertEpisode(
    d,
    {
      agentId,
      conversationId,
      summary: `The user adopted a ${words}.`,
      topics: ['pets'],
      entities: [],
      decisions: [],
      actionItems: [],
      salience: 0.6,
      conversationAt: 1_000,
    },
    2_000,
  );
  const fact = insertPinned(
    d,
    {
      agentId,
      content: `User adopted a ${words}`,
      salience: 0.7,
      tags: ['pet'],
      pinnedByUser: false,
      sourceEpisodeId: episode,
    },
    2_000,
  );
  return { turn, episode, fact };
}

function trashConversation(d: Db, agentId: string, conversationId: string): number {
  const id = createTrashEntry(d, { agentId, kind: 'conversation', label: 'c1', now: 5_000 });
  const episodes = episodeIdsOfConversation(d, agentId, conversationId);
  moveRowsToTrash(d, id, agentId, 'pinned_facts', factIdsOnlyFrom(d, agentId, episodes));
  moveRowsToTrash(d, id, agentId, 'episodes', episodes);
  moveRowsToTrash(
    d,
    id,
    agentId,
    'pending_signals',
    signalIdsOfConversation(d, agentId, conversationId),
  );
  moveRowsToTrash(
    d,
    id,
    agentId,
    'transcript',
    transcriptIdsOfConversation(d, agentId, conversationId),
  );
  return id;
}

describe('trash', () => {
  it('moves a conversation out of every table and its index, and restores it byte for byte', () => {
    const d = db();
    seedConversation(d, 'a', 'c1', 'beagle named Biscuit');
    seedConversation(d, 'a', 'c2', 'tabby cat');
    const before = {
      transcript: rowsOf(d, 'transcript', 'a'),
      episodes: rowsOf(d, 'episodes', 'a'),
      pinned_facts: rowsOf(d, 'pinned_facts', 'a'),
      pending_signals: rowsOf(d, 'pending_signals', 'a'),
    };
    expect(ftsHits(d, 'biscuit')).toHaveLength(1);

    const id = trashConversation(d, 'a', 'c1');
    expect(rowsOf(d, 'transcript', 'a')).toHaveLength(2);
    expect(rowsOf(d, 'episodes', 'a')).toHaveLength(1);
    expect(rowsOf(d, 'pinned_facts', 'a')).toHaveLength(1);
    expect(ftsHits(d, 'biscuit')).toEqual([]);
    const listed = listTrash(d, { agentId: 'a', limit: 10, offset: 0 });
    expect(listed.total).toBe(1);
    expect(listed.items[0]).toMatchObject({
      id,
      kind: 'conversation',
      itemCount: 5,
      counts: { transcript: 2, episodes: 1, pinned_facts: 1, pending_signals: 1 },
    });

    expect(restoreTrashEntry(d, id)).not.toBeNull();
    expect(rowsOf(d, 'transcript', 'a')).toEqual(before.transcript);
    expect(rowsOf(d, 'episodes', 'a')).toEqual(before.episodes);
    expect(rowsOf(d, 'pinned_facts', 'a')).toEqual(before.pinned_facts);
    expect(rowsOf(d, 'pending_signals', 'a')).toEqual(before.pending_signals);
    expect(ftsHits(d, 'biscuit')).toHaveLength(1);
    expect(listTrash(d, { limit: 10, offset: 0 }).total).toBe(0);
    // FTS5's integrity-check throws when the index and the table disagree.
    d.prepare(
      `INSERT INTO transcript_stem_fts (transcript_stem_fts) VALUES ('integrity-check')`,
    ).run();
  });

  it('gives a restored row a new id when a newer row took its id, and follows references', () => {
    const d = db();
    const { turn, episode } = seedConversation(d, 'a', 'c1', 'beagle');
    const id = trashConversation(d, 'a', 'c1');
    // New rows reuse the freed ids (INTEGER PRIMARY KEY without AUTOINCREMENT).
    const newer = seedConversation(d, 'a', 'c9', 'parrot');
    expect(newer.turn.transcriptIds).toEqual(turn.transcriptIds);
    expect(newer.episode).toBe(episode);

    const result = restoreTrashEntry(d, id)!;
    const restoredEpisode = result.restored.episodes![0]!;
    expect(restoredEpisode).not.toBe(episode);
    const fact = d
      .prepare(`SELECT source_episode_id FROM pinned_facts WHERE content LIKE '%beagle%'`)
      .pluck()
      .get();
    expect(fact).toBe(restoredEpisode);
    const signal = d
      .prepare(
        `SELECT first_transcript_id, last_transcript_id FROM pending_signals WHERE conversation_id = 'c1'`,
      )
      .get() as { first_transcript_id: number; last_transcript_id: number };
    expect(result.restored.transcript).toContain(signal.first_transcript_id);
    expect(result.restored.transcript).toContain(signal.last_transcript_id);
    expect(ftsHits(d, 'beagle')).toHaveLength(1);
    expect(ftsHits(d, 'parrot')).toHaveLength(1);
  });

  it('never touches another agent, and merges identity overrides on restore', () => {
    const d = db();
    seedConversation(d, 'a', 'c1', 'beagle');
    seedConversation(d, 'b', 'c1', 'beagle');
    putIdentity(d, 'a', { narrative: 'Ada', overrides: ['User lives in Lisbon'] }, 1);
    const id = createTrashEntry(d, { agentId: 'a', kind: 'agent', label: 'a', now: 1 });
    for (const table of ['pinned_facts', 'episodes', 'pending_signals', 'transcript'] as const) {
      // Ids of agent b passed by mistake are not moved.
      moveRowsToTrash(d, id, 'a', table, [
        ...allRowIdsOfAgent(d, 'a', table),
        ...allRowIdsOfAgent(d, 'b', table),
      ]);
    }
    moveRowsToTrash(d, id, 'a', 'identity', ['a', 'b']);
    expect(rowsOf(d, 'transcript', 'a')).toHaveLength(0);
    expect(rowsOf(d, 'transcript', 'b')).toHaveLength(2);
    expect(getIdentity(d, 'a').overrides).toEqual([]);

    putIdentity(d, 'a', { overrides: ['User has a beagle'] }, 2);
    restoreTrashEntry(d, id);
    expect(getIdentity(d, 'a').overrides).toEqual(['User has a beagle', 'User lives in Lisbon']);
    expect(rowsOf(d, 'transcript', 'a')).toHaveLength(2);
  });

  it('purges entries older than the cut-off for good', () => {
    const d = db();
    seedConversation(d, 'a', 'c1', 'beagle');
    const id = trashConversation(d, 'a', 'c1');
    expect(purgeTrashBefore(d, 5_000)).toBe(0);
    expect(purgeTrashBefore(d, 5_001)).toBe(1);
    expect(d.prepare('SELECT count(*) FROM trash_rows').pluck().get()).toBe(0);
    expect(restoreTrashEntry(d, id)).toBeNull();
  });
});
