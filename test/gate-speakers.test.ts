// The gate knows the people of an imported chat log by its speaker labels. Those labels come
// from a sample of the agent's turns; after a long chat in one or two conversations (thousands
// of turns with no labels), the log's speakers must still be in it, or a question about them
// ("What did Lidia say about the movie?") gets no memory.
import { afterEach, describe, expect, it } from 'vitest';
import { recordTurns } from '../src/main/engine/store/transcript.ts';
import { addFact } from './helpers/memory-rows.ts';
import { type EngineHarness, startEngine } from './helpers/engine-harness.ts';

let h: EngineHarness | null = null;
afterEach(async () => {
  await h?.stop();
  h = null;
});

describe('speakers of an imported log', () => {
  it('stay known to the gate after thousands of turns of chat', async () => {
    h = await startEngine();
    const { db, memory } = h.services;
    const at = Date.UTC(2026, 0, 1);
    const log = [0, 1, 2].map((session) => ({
      agentId: 'a',
      conversationId: `log-${session}`,
      messages: Array.from({ length: 12 }, (_, i) => ({
        role: (i % 2 === 0 ? 'user' : 'assistant') as 'user' | 'assistant',
        content:
          i % 2 === 0
            ? `Lidia: I watched a film about lighthouses, session ${session} turn ${i}`
            : `Tobias: Did it have a good ending? (${session}.${i})`,
        createdAt: at + session * 86_400_000 + i * 60_000,
      })),
    }));
    recordTurns(db, log);
    const chat = Array.from({ length: 700 }, (_, i) => ({
      agentId: 'a',
      conversationId: `chat-${i % 2}`,
      messages: [
        {
          role: 'user' as const,
          content: `how do I sort a list of tuples, case ${i}`,
          createdAt: at + 10 * 86_400_000 + i * 1_000,
        },
        {
          role: 'assistant' as const,
          content: `Use sorted() with a key, case ${i}.`,
          createdAt: at + 10 * 86_400_000 + i * 1_000 + 500,
        },
      ],
    }));
    recordTurns(db, chat);
    const ctx = await memory.buildContext('a', 'What did Lidia say about the movie?');
    expect(ctx.section).not.toBe('none');
    expect(ctx.block).toContain('lighthouses');
    // And nothing for a general question, however much the memory holds.
    expect((await memory.buildContext('a', 'What is a good film about lighthouses?')).section).toBe(
      'none',
    );
  });

  it('stay known after hundreds of new conversations of chat, long or short', async () => {
    h = await startEngine();
    const { db, memory } = h.services;
    const at = Date.UTC(2026, 0, 1);
    recordTurns(db, [
      {
        agentId: 'c',
        conversationId: 'log',
        messages: Array.from({ length: 30 }, (_, i) => ({
          role: (i % 2 === 0 ? 'user' : 'assistant') as 'user' | 'assistant',
          content:
            i % 2 === 0
              ? `Lidia: I watched a film about lighthouses, turn ${i}`
              : `Tobias: Did it have a good ending? (${i})`,
          createdAt: at + i * 60_000,
        })),
      },
    ]);
    recordTurns(
      db,
      Array.from({ length: 600 }, (_, i) => ({
        agentId: 'c',
        conversationId: `q-${i}`,
        messages: [
          { role: 'user' as const, content: `quick question ${i}`, createdAt: at + 86_400_000 + i },
          { role: 'assistant' as const, content: `answer ${i}`, createdAt: at + 86_400_000 + i },
        ],
      })),
    );
    // Longer than the log's session, too: the sample is spread over the history, not the longest.
    recordTurns(
      db,
      Array.from({ length: 60 }, (_, c) => ({
        agentId: 'c',
        conversationId: `long-${c}`,
        messages: Array.from({ length: 40 }, (_, i) => ({
          role: (i % 2 === 0 ? 'user' : 'assistant') as 'user' | 'assistant',
          content: `long chat ${c}.${i}`,
          createdAt: at + 2 * 86_400_000 + c * 1_000 + i,
        })),
      })),
    );
    const ctx = await memory.buildContext('c', 'What did Lidia say about the movie?');
    expect(ctx.section).not.toBe('none');
    expect(ctx.block).toContain('lighthouses');
  });

  it('a person named in a new fact counts for the very next question, not 30 s later', async () => {
    h = await startEngine();
    const { db, memory } = h.services;
    const at = Date.UTC(2026, 0, 1);
    recordTurns(db, [
      {
        agentId: 'b',
        conversationId: 'c1',
        messages: [
          { role: 'user', content: 'my older sister Hana lives in Osaka', createdAt: at },
          { role: 'assistant', content: 'Nice!', createdAt: at + 1 },
        ],
      },
    ]);
    // The gate reads the agent's names now, before the fact exists.
    expect((await memory.buildContext('b', 'where does Hana live?')).section).toBe('none');
    addFact(db, { agentId: 'b', content: "User's sister is named Hana" }, at + 2);
    const ctx = await memory.buildContext('b', 'where does Hana live?');
    expect(ctx.section).not.toBe('none');
    expect(ctx.block).toContain('Osaka');
  });
});
