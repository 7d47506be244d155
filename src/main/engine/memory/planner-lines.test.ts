// The planner names the memory row behind every line of its block (the Activity view, issue 12).
import { describe, expect, it } from 'vitest';
import { addEpisode, addFact } from '../../../../test/helpers/memory-rows.ts';
import { searchDepsPerTest } from '../../../../test/helpers/search-deps.ts';
import { putIdentity } from '../store/identity.ts';
import { recordTurn } from '../store/transcript.ts';
import { planMemoryBlock } from './planner.ts';

const NOW = new Date(2025, 5, 1, 12).getTime();
const setup = searchDepsPerTest(NOW);

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
    const factId = addFact(
      db,
      {
        agentId: 'a',
        content: 'The hive is called Honeybadger.',
        salience: 0.8,
        pinnedByUser: true,
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
    const episodeId = addEpisode(
      db,
      {
        agentId: 'a',
        conversationId: 'c1',
        summary: 'Planned the garden renovation: raised beds and a pond.',
        topics: ['garden'],
        salience: 0.7,
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
