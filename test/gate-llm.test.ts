// The llm relevance gate through the real server: the Core Model (the scripted upstream)
// picks the section; on a hang, an error or garbage the heuristic decides, quickly.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ContextResponse } from '../src/shared/api.ts';
import { startEngine, type EngineHarness } from './helpers/engine-harness.ts';

let h: EngineHarness;

beforeAll(async () => {
  h = await startEngine({ config: { coreModel: 'core-model' } });
  const put = await h.api('PUT', '/settings', { relevanceGateMode: 'llm' });
  expect(put.status).toBe(200);
  const ingest = await h.api('POST', '/memory/ingest', {
    agent_id: 'kim',
    conversation_id: 'c1',
    session_date: '2024-01-05T10:00:00Z',
    skip_extraction: true,
    turns: [{ user: 'My favourite poem is about autumn rain', assistant: 'Lovely choice.' }],
  });
  expect(ingest.status).toBe(200);
});

beforeEach(() => h.upstream.reset());

afterAll(async () => {
  await h?.stop();
});

async function context(message: string): Promise<ContextResponse> {
  const res = await h.api<ContextResponse>('POST', '/memory/context', { agent_id: 'kim', message });
  expect(res.status).toBe(200);
  return res.body;
}

describe('llm gate', () => {
  it('asks the Core Model and uses its one-word answer', async () => {
    h.upstream.enqueue({ kind: 'chat', content: 'transcript' });
    // The heuristic would say none (a writing task); the Core Model says transcript.
    const r = await context('Write a haiku in the style of my favourite poem about autumn rain');
    expect(r.section).toBe('transcript');
    expect(r.block).toContain('My favourite poem is about autumn rain');
    const call = h.upstream.chatRequests()[0]?.body as { model: string; messages: unknown[] };
    expect(call.model).toBe('core-model');
  });

  it('falls back to the heuristic on garbage, errors and hangs, within the timeout', async () => {
    h.upstream.enqueue({ kind: 'chat', content: 'Well, it depends on many things.' });
    expect((await context('Write a haiku about the sea')).section).toBe('none');

    h.upstream.enqueue({ kind: 'error', status: 500, message: 'boom' });
    expect((await context('What is my favourite poem?')).section).toBe('pinned');

    h.upstream.enqueue({ kind: 'hang' });
    const t0 = performance.now();
    expect((await context('Explain quicksort')).section).toBe('none');
    expect(performance.now() - t0).toBeLessThan(3_000);
  });
});
