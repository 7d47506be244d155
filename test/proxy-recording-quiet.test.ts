import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EngineHarness, startEngine } from './helpers/engine-harness.ts';

// Recording a chat turn (parsing the answer, the transcript and signal commit) waits until no
// request is in flight, so it never competes with the requests being answered.

let h: EngineHarness;
let client: OpenAI;
beforeAll(async () => {
  h = await startEngine();
  client = new OpenAI({ baseURL: h.url + '/v1', apiKey: h.token, maxRetries: 0 });
});
afterAll(() => h?.stop());

const rowCount = (agent: string) =>
  (
    h.services.db.prepare('SELECT count(*) AS n FROM transcript WHERE agent_id = ?').get(agent) as {
      n: number;
    }
  ).n;

async function until(check: () => boolean, timeoutMs = 3000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return check();
}

describe('recording waits for a quiet moment', () => {
  it('records a finished turn only after the requests still in flight have ended', async () => {
    // B: a slow stream that stays in flight for ~600 ms.
    h.upstream.enqueue({
      kind: 'stream',
      chunks: ['one ', 'two ', 'three ', 'four'],
      delayMs: 150,
    });
    const slow = client.chat.completions
      .create(
        { model: 'scripted-model', stream: true, messages: [{ role: 'user', content: 'Count.' }] },
        { headers: { 'X-Osaurus-Agent-Id': 'quiet-b' } },
      )
      .then(async (stream) => {
        let text = '';
        for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
        return text;
      });
    await new Promise((r) => setTimeout(r, 100));

    // A: answered while B is in flight.
    h.upstream.enqueue({ kind: 'chat', content: 'Noted, you like tea.' });
    const a = await client.chat.completions.create(
      { model: 'scripted-model', messages: [{ role: 'user', content: 'I like green tea.' }] },
      { headers: { 'X-Osaurus-Agent-Id': 'quiet-a' } },
    );
    expect(a.choices[0]!.message.content).toBe('Noted, you like tea.');
    await new Promise((r) => setTimeout(r, 150));
    expect(rowCount('quiet-a')).toBe(0);

    expect(await slow).toBe('one two three four');
    // Both turns once nothing is in flight any more (after the quiet time, 25 ms).
    expect(await until(() => rowCount('quiet-a') === 2 && rowCount('quiet-b') === 2)).toBe(true);
  });

  it('records right away when nothing else is in flight', async () => {
    h.upstream.enqueue({ kind: 'chat', content: 'Hello.' });
    await client.chat.completions.create(
      { model: 'scripted-model', messages: [{ role: 'user', content: 'Hi there.' }] },
      { headers: { 'X-Osaurus-Agent-Id': 'quiet-c' } },
    );
    const started = Date.now();
    expect(await until(() => rowCount('quiet-c') === 2)).toBe(true);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
