// Questions that name a day ("what did we talk about yesterday?", "on Saturday", "three days
// ago", "on 20 November"): the conversations of that day come first in the block, through the
// real server, with conversations ingested on six consecutive days and distilled.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContextResponse } from '../src/shared/api.ts';
import { startEngine, type EngineHarness } from './helpers/engine-harness.ts';

const DAY = 86_400_000;
let h: EngineHarness;
let now: number;

/** One conversation a day, `ago` days back. */
const WEEK: [ago: number, user: string, assistant: string][] = [
  [
    6,
    'Help me plan the garden: tomatoes, beans and a herb bed.',
    'Put the beans on the north side.',
  ],
  [5, 'Can you review my cover letter for the museum curator job?', 'Lead with your exhibition.'],
  [
    4,
    'My car failed its MOT on the brake discs, what will that cost?',
    'Usually 150 to 300 pounds.',
  ],
  [
    3,
    "Let's plan my sister Ana's hen party in Brighton for twelve.",
    'A cocktail class and dinner.',
  ],
  [2, 'I want to start running again, make me a couch to 5k plan.', 'Three runs a week to start.'],
  [
    1,
    'My landlord wants to raise the rent by 15 percent, is that legal?',
    'Check the notice period.',
  ],
];

beforeAll(async () => {
  h = await startEngine();
  now = Date.now();
  // `wk` distilled into episodes; `raw` kept as turns only (extraction skipped).
  for (const [agent, skip] of [
    ['wk', false],
    ['raw', true],
  ] as const) {
    for (const [ago, user, assistant] of WEEK) {
      const res = await h.api('POST', '/memory/ingest', {
        agent_id: agent,
        conversation_id: `day-${ago}`,
        session_date: new Date(now - ago * DAY).toISOString(),
        skip_extraction: skip,
        turns: [{ user, assistant }],
      });
      expect(res.status).toBe(200);
    }
  }
  await h.idle();
});

afterAll(async () => {
  await h?.stop();
});

/** The first line of the block's past conversations (or, for `raw`, its conversation excerpts). */
async function firstConversation(message: string, agent = 'wk'): Promise<string> {
  const res = await h.api('POST', '/memory/context', { agent_id: agent, message });
  expect(res.status).toBe(200);
  const { section, block } = ContextResponse.parse(res.body);
  expect(section).toBe('episode');
  const lines = block.split('\n');
  const title = agent === 'wk' ? '## Past conversations' : '## Conversation excerpts';
  return lines[lines.indexOf(title) + 1] ?? '';
}

const weekday = (ago: number) =>
  new Date(now - ago * DAY).toLocaleDateString('en-GB', { weekday: 'long', timeZone: 'UTC' });
const dayMonth = (ago: number) =>
  new Date(now - ago * DAY).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    timeZone: 'UTC',
  });

describe('a question that names a day', () => {
  it('reads the day back from its turns when none of them was distilled', async () => {
    expect(await firstConversation('What did we talk about yesterday?', 'raw')).toContain(
      'landlord',
    );
    expect(await firstConversation(`What did I ask you about on ${weekday(4)}?`, 'raw')).toContain(
      'MOT',
    );
  });

  it('"yesterday": the conversation of yesterday, though it shares no word with the question', async () => {
    expect(await firstConversation('What did we talk about yesterday?')).toContain('landlord');
  });

  it('"on <weekday>", "three days ago", "on <day> <month>"', async () => {
    expect(await firstConversation(`What did I ask you about on ${weekday(4)}?`)).toContain('MOT');
    expect(await firstConversation('remind me what we discussed three days ago')).toContain(
      'hen party',
    );
    expect(await firstConversation(`What did we discuss on ${dayMonth(5)}?`)).toContain(
      'cover letter',
    );
  });
});
