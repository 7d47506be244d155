// Read your writes: what the user said in one conversation is memory for the next request of
// the same agent in another one, however soon it follows. Turns are recorded once the server
// is quiet (server/background.ts); a request of the same agent records them first. Another
// request kept in flight holds the server busy, so without that nothing would be recorded yet.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEngine, type EngineHarness } from './helpers/engine-harness.ts';
import { memoryBlockOf, messageText } from '../bench/memory-block.ts';

let h: EngineHarness;
let client: OpenAI;

beforeAll(async () => {
  h = await startEngine({ logLevel: 'error' });
  client = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: h.token, maxRetries: 0 });
});
afterAll(() => h?.stop());

const chat = (agent: string, conversation: string, content: string) =>
  client.chat.completions.create(
    { model: 'scripted-model', messages: [{ role: 'user', content }] },
    { headers: { 'X-Osaurus-Agent-Id': agent, 'X-Osaurus-Conversation-Id': conversation } },
  );

/** The memory block of the last chat request the upstream received. */
function lastBlock(): string {
  const body = h.upstream.chatRequests().at(-1)?.body as
    { messages?: { role: string; content: unknown }[] } | undefined;
  return memoryBlockOf(
    messageText(body?.messages?.filter((m) => m.role === 'user').at(-1)?.content),
  );
}

describe('read your writes across conversations', () => {
  it('a question right after a statement, while the server is busy, gets the statement', async () => {
    // Another agent's slow answer keeps a request in flight the whole time.
    h.upstream.enqueue({ kind: 'chat', content: 'slow', delayMs: 1_500 });
    const busy = chat('someone-else', 'long', 'Tell me a long story');
    await new Promise((r) => setTimeout(r, 50));

    h.upstream.enqueue({ kind: 'chat', content: 'Congratulations!' });
    await chat(
      'ryw',
      'c1',
      'My sister Ines just moved to Valparaiso, any housewarming gift ideas?',
    );
    h.upstream.enqueue({ kind: 'chat', content: 'ok' });
    await chat('ryw', 'c2', 'Where does my sister live now?');
    expect(lastBlock()).toContain('Valparaiso');
    await busy;
  });

  it('a request in the same conversation does not wait: its history comes with it', async () => {
    h.upstream.enqueue({ kind: 'chat', content: 'slow', delayMs: 1_500 });
    const busy = chat('someone-else', 'long-2', 'Another long story please');
    await new Promise((r) => setTimeout(r, 50));

    h.upstream.enqueue({ kind: 'chat', content: 'Nice!' });
    await chat('ryw-same', 'c1', 'My brother Tomas moved to Antofagasta last week.');
    h.upstream.enqueue({ kind: 'chat', content: 'ok' });
    await chat('ryw-same', 'c1', 'Where does my brother live now?');
    // Still waiting for a quiet moment: not recorded, so not in this conversation's block.
    expect(lastBlock()).not.toContain('Antofagasta');
    await busy;
  });
});
