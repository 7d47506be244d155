// The renderer's API client and its export/import, against the real engine: server errors
// come through with their message, responses are schema-checked, and an export imported
// into a fresh engine brings back the facts, identity and transcript.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createApiClient } from '../../src/renderer/src/api/client.ts';
import { exportMemory, importMemory } from '../../src/renderer/src/exportImport.ts';
import { startEngine, type EngineHarness } from '../helpers/engine-harness.ts';

let a: EngineHarness;
let b: EngineHarness;

beforeAll(async () => {
  [a, b] = await Promise.all([startEngine({ upstream: null }), startEngine({ upstream: null })]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
});

describe('API client', () => {
  it('reports the server message of a refused request, and 401s to the UI', async () => {
    let unauthorized = 0;
    const bad = createApiClient({
      baseUrl: a.url,
      token: 'wrong',
      onUnauthorized: () => unauthorized++,
    });
    const err = await bad.agents().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(401);
    expect((err as ApiError).message).toBe('Invalid access token.');
    expect(unauthorized).toBe(1);

    const api = createApiClient({ baseUrl: a.url, token: a.token });
    const notFound = await api.getPinned(987654, 'nobody').catch((e: unknown) => e);
    expect(notFound).toBeInstanceOf(ApiError);
    expect((notFound as ApiError).status).toBe(404);
    expect((notFound as ApiError).message.length).toBeGreaterThan(0);
  });

  it('checks inputs with the shared schemas before sending', async () => {
    const api = createApiClient({ baseUrl: a.url, token: a.token });
    await expect(api.putSettings({ memoryBudgetTokens: 99999 })).rejects.toThrow();
    const stored = await api.getSettings();
    expect(stored.memoryBudgetTokens).toBe(800);
  });

  it('says plainly when the server cannot be reached', async () => {
    const api = createApiClient({ baseUrl: 'http://127.0.0.1:9', token: 't' });
    const err = await api.health().catch((e: unknown) => e);
    expect((err as ApiError).code).toBe('network_error');
    expect((err as ApiError).message).toContain('Cannot reach the Cairn server');
  });
});

describe('export and import', () => {
  it('round-trips facts, identity and transcript into a fresh engine', async () => {
    const src = createApiClient({ baseUrl: a.url, token: a.token });
    await src.createPinned({ agent_id: 'agent-x', content: 'Speaks Portuguese', salience: 0.8 });
    const disabled = await src.createPinned({ agent_id: 'agent-x', content: 'Once lived in Oslo' });
    await src.patchPinned(disabled.id, 'agent-x', { status: 'disabled' });
    await src.putIdentity({
      agent_id: 'agent-x',
      narrative: 'A translator.',
      overrides: ['Answer briefly'],
    });
    await src.ingest({
      agent_id: 'agent-x',
      conversation_id: 'conv-1',
      turns: [{ user: 'How do you say thanks?', assistant: 'Obrigado.' }],
      skip_extraction: true,
    });

    const dump = await exportMemory(src);
    expect(dump.agents.map((x) => x.id)).toEqual(['agent-x']);
    const json = JSON.stringify(dump);

    const dst = createApiClient({ baseUrl: b.url, token: b.token });
    const report = await importMemory(dst, { format: 'cairn', agentId: '', text: json });
    expect(report).toEqual({ agents: 1, conversations: 1, turns: 1, facts: 2, episodes: 0 });

    const facts = await dst.listPinned({ agent_id: 'agent-x', status: 'all' });
    expect(
      facts.items.map((f) => [f.content, f.status]).sort((x, y) => x[0]!.localeCompare(y[0]!)),
    ).toEqual([
      ['Once lived in Oslo', 'disabled'],
      ['Speaks Portuguese', 'active'],
    ]);
    const identity = await dst.getIdentity('agent-x');
    expect(identity.narrative).toBe('A translator.');
    expect(identity.overrides).toEqual(['Answer briefly']);
    const transcript = await dst.listTranscript({ agent_id: 'agent-x' });
    expect(transcript.items.map((r) => r.content).sort()).toEqual([
      'How do you say thanks?',
      'Obrigado.',
    ]);
  });

  it('refuses a file that is not a Cairn export', async () => {
    const dst = createApiClient({ baseUrl: b.url, token: b.token });
    const cairn = (text: string) => importMemory(dst, { format: 'cairn', agentId: '', text });
    await expect(cairn('{"hello": 1}')).rejects.toThrow('not a Cairn memory export');
    await expect(cairn('not json')).rejects.toThrow('not JSON');
  });

  it('imports a service export into the named agent, and shows the server refusing a wrong one', async () => {
    const dst = createApiClient({ baseUrl: b.url, token: b.token });
    const claude = JSON.stringify([
      {
        uuid: 'c-1',
        name: 'Bread',
        created_at: '2022-02-02T08:00:00Z',
        chat_messages: [
          {
            sender: 'human',
            text: 'I bake sourdough every Sunday.',
            created_at: '2022-02-02T08:00:00Z',
          },
          { sender: 'assistant', text: 'Nice routine.', created_at: '2022-02-02T08:00:05Z' },
        ],
      },
    ]);
    const into = (format: 'claude' | 'chatgpt', agentId: string) =>
      importMemory(dst, { format, agentId, text: claude });
    await expect(into('claude', ' ')).rejects.toThrow('Name the agent');
    expect(await into('claude', 'baker')).toEqual({
      agents: 1,
      conversations: 1,
      turns: 1,
      facts: 0,
      episodes: 0,
    });
    const refused = await into('chatgpt', 'baker').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(400);
    expect((refused as ApiError).message).toMatch(/looks like a Claude export/);
  });
});
