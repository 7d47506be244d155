// Settings that steer the read path, through the real server: enabled, relevanceGateMode off,
// memoryBudgetTokens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContextResponse } from '../src/shared/api.ts';
import { countTokens } from '../src/main/engine/memory/tokens.ts';
import { startEngine, type EngineHarness } from './helpers/engine-harness.ts';

let h: EngineHarness;

beforeAll(async () => {
  h = await startEngine();
  const turns = Array.from({ length: 40 }, (_, i) => ({
    user: `Note ${i}: my garden has tomatoes, basil and ${i} sunflowers along the fence`,
    assistant: `Your garden sounds great, ${i} sunflowers is a lot of sunflowers!`,
  }));
  const res = await h.api('POST', '/memory/ingest', {
    agent_id: 'lee',
    conversation_id: 'g',
    session_date: '2024-07-01',
    skip_extraction: true,
    turns,
  });
  expect(res.status).toBe(200);
});

afterAll(async () => {
  await h?.stop();
});

const context = async (message: string) =>
  (await h.api<ContextResponse>('POST', '/memory/context', { agent_id: 'lee', message })).body;
const settings = async (patch: Record<string, unknown>) =>
  expect((await h.api('PUT', '/settings', patch)).status).toBe(200);

describe('read-path settings', () => {
  it('fits the block under memoryBudgetTokens', async () => {
    for (const budget of [100, 250, 800]) {
      await settings({ memoryBudgetTokens: budget });
      const r = await context('What exactly did I say about my sunflowers?');
      expect(r.section).toBe('transcript');
      expect(r.block).toContain('sunflowers');
      expect(r.tokens).toBe(countTokens(r.block));
      expect(r.tokens).toBeLessThanOrEqual(budget);
    }
    await settings({ memoryBudgetTokens: 800 });
  });

  it('with the gate off, memory is looked up for every message', async () => {
    await settings({ relevanceGateMode: 'off' });
    const r = await context('sunflowers');
    expect(r.block).toContain('sunflowers');
    await settings({ relevanceGateMode: 'heuristic' });
    expect((await context('sunflowers')).section).toBe('none');
  });

  it('nothing is injected while memory is disabled', async () => {
    await settings({ enabled: false });
    expect(await context('What exactly did I say about my sunflowers?')).toEqual({
      section: 'none',
      block: '',
      tokens: 0,
    });
    await settings({ enabled: true });
    expect((await context('What exactly did I say about my sunflowers?')).block).not.toBe('');
  });
});
