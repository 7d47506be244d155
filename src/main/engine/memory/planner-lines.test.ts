// The planner names the memory row behind every line of its block (the Activity view, issue 12).
import { afterEach, describe, expect, it } from 'vitest';
import { tempDatabase } from '../../../../test/helpers/temp-db.ts';
import { fixedClock } from '../clock.ts';
import { insertEpisode } from '../store/episodes.ts';
import { putIdentity } from '../store/identity.ts';
import { insertPinned } from '../store/pinned.ts';
import { recordTurn } from '../store/transcript.ts';
import { planMemoryBlock } from './planner.ts';

const NOW = new Date(2025, 5, 1, 12).getTime();
const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function setup() {
  const t = tempDatabase();
  cleanups.push(t.cleanup);
  return { db: t.db, deps: { db: t.db, vectors: null, clock: fixedClock(NOW) } };
}

/** The block's "- " lines, in order. */
const blockLines = (block: string) =>
  block
    .split('\n')
    .filter((l) => l.startsWith('- '))
    .map((l) => l.slice(2));

describe('planner lines and their sources', () => {
  it('gives each line of the block, in block order, with the row it came from', async () => {
    const { db, deps } = setup();
    putIdentity(
      db,
      'a',
      { narrative: 'Sam is a beekeeper.', overrides: ['Name: Sam', 'Lives in Lisbon'] },
      NOW,
    );
    const factId = insertPinned(
      db,
      {
        agentId: 'a',
        content: 'The hive is called Honeybadger.',
        salience: 0.8,
        tags: [],
        pinnedByUser: true,
        sourceEpisodeId: null,
      },
      NOW,
    );
    const r = await planMemoryBlock(deps, {
      agentId: 'a',
      message: 'Tell me about me and the Honeybadger hive',
      section: 'identity',
      budgetTokens: 800,
    });
    expect(r.lines?.map((l) => l.text)).toEqual(blockLines(r.block));
    expect(r.lines?.map((l) => l.source)).toEqual([
      { scope: 'identity', id: 0 },
      { scope: 'identity', id: 1 },
      { scope: 'identity', id: null },
      { scope: 'pinned', id: factId },
    ]);
  });

  it('names episodes by id, and transcript lines in the time order the block shows', async () => {
    const { db, deps } = setup();
    const episodeId = insertEpisode(
      db,
      {
        agentId: 'a',
        conversationId: 'c1',
        summary: 'Planned the garden renovation: raised beds and a pond.',
        topics: ['garden'],
        entities: [],
        decisions: [],
        actionItems: [],
        salience: 0.7,
        conversationAt: NOW - 86_400_000,
      },
      NOW - 86_400_000,
    );
    const later = recordTurn(db, {
      agentId: 'a',
      conversationId: 'c2',
      messages: [{ role: 'user', content: 'The garden pond needs a pump', createdAt: NOW - 1000 }],
    });
    const earlier = recordTurn(db, {
      agentId: 'a',
      conversationId: 'c1',
      messages: [{ role: 'user', content: 'Garden beds should be raised', createdAt: NOW - 5000 }],
    });
    const r = await planMemoryBlock(deps, {
      agentId: 'a',
      message: 'what did we discuss about the garden?',
      section: 'episode',
      budgetTokens: 800,
    });
    expect(r.lines?.map((l) => l.text)).toEqual(blockLines(r.block));
    expect(r.lines?.map((l) => l.source)).toEqual([
      { scope: 'episodes', id: episodeId },
      { scope: 'transcript', id: earlier.transcriptIds[0] },
      { scope: 'transcript', id: later.transcriptIds[0] },
    ]);
  });
});
