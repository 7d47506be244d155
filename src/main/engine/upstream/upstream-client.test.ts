import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultSettings, type Settings } from '../../../shared/settings.ts';
import {
  type ScriptedUpstream,
  startScriptedUpstream,
} from '../../../../test/helpers/scripted-upstream.ts';
import { isCairnError } from '../errors.ts';
import { silentLogger } from '../logger.ts';
import type { SettingsService } from '../services.ts';
import { createUpstreamClient } from './upstream-client.ts';

let upstream: ScriptedUpstream;
beforeAll(async () => {
  upstream = await startScriptedUpstream();
});
afterAll(() => upstream?.close());
beforeEach(() => upstream.reset());

function settingsWith(partial: Partial<Settings>): SettingsService {
  let s: Settings = { ...defaultSettings, ...partial };
  return {
    get: () => s,
    update: (p) => (s = { ...s, ...p } as Settings),
    onChange: () => () => {},
  };
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    if (isCairnError(err)) return `${err.status} ${err.code}`;
    throw err;
  }
  return 'resolved';
}

describe('upstream client', () => {
  it('resolves the active provider from settings, and the CLI URL over it', () => {
    const settings = settingsWith({
      providers: [
        { id: 'a', name: 'A', baseUrl: 'http://127.0.0.1:1111/v1/' },
        { id: 'b', name: 'B', baseUrl: 'http://127.0.0.1:2222/v1', apiKey: 'k' },
      ],
      activeProviderId: 'b',
    });
    const fromSettings = createUpstreamClient({ settings, logger: silentLogger });
    expect(fromSettings.target()).toEqual({
      baseUrl: 'http://127.0.0.1:2222/v1',
      apiKey: 'k',
      source: 'provider',
    });
    settings.update({ activeProviderId: null });
    expect(fromSettings.baseUrl()).toBe('http://127.0.0.1:1111/v1');
    const fromConfig = createUpstreamClient({
      settings,
      logger: silentLogger,
      config: { upstreamUrl: 'http://127.0.0.1:3333/v1' },
    });
    expect(fromConfig.baseUrl()).toBe('http://127.0.0.1:3333/v1');
    expect(
      createUpstreamClient({ settings: settingsWith({}), logger: silentLogger }).baseUrl(),
    ).toBeNull();
  });

  it('asks the Core Model for JSON and sends the provider key', async () => {
    const client = createUpstreamClient({
      settings: settingsWith({}),
      logger: silentLogger,
      config: { upstreamUrl: upstream.url, upstreamApiKey: 'sk-up' },
    });
    upstream.enqueue({ kind: 'digest', digest: { episode: { summary: 's' } } });
    const result = await client.complete({
      model: 'core',
      messages: [{ role: 'user', content: 'digest this' }],
      json: true,
      temperature: 0,
      maxTokens: 300,
    });
    expect(JSON.parse(result.content)).toEqual({ episode: { summary: 's' } });
    expect(result.tokens).toBe(15);
    const req = upstream.chatRequests()[0]!;
    expect(req.headers.authorization).toBe('Bearer sk-up');
    expect(req.body).toMatchObject({
      model: 'core',
      stream: false,
      temperature: 0,
      max_tokens: 300,
      response_format: { type: 'json_object' },
    });
  });

  it('retries without response_format when the provider rejects it', async () => {
    const client = createUpstreamClient({
      settings: settingsWith({}),
      logger: silentLogger,
      config: { upstreamUrl: upstream.url },
    });
    upstream.enqueue(
      { kind: 'error', status: 400, message: 'response_format is not supported' },
      { kind: 'chat', content: '{"ok":true}' },
    );
    const result = await client.complete({ model: 'core', messages: [], json: true });
    expect(result.content).toBe('{"ok":true}');
    const [first, second] = upstream.chatRequests();
    expect(first!.body).toHaveProperty('response_format');
    expect(second!.body).not.toHaveProperty('response_format');
  });

  it('maps failures to typed errors', async () => {
    const client = createUpstreamClient({
      settings: settingsWith({}),
      logger: silentLogger,
      config: { upstreamUrl: upstream.url, timeoutMs: 200 },
    });
    const call = (timeoutMs?: number) =>
      client.complete({ model: 'core', messages: [], timeoutMs });
    upstream.enqueue({ kind: 'error', status: 503, message: 'overloaded' });
    expect(await codeOf(call())).toBe('502 upstream_error');
    upstream.enqueue({ kind: 'error', status: 401, message: 'bad key' });
    expect(await codeOf(call())).toBe('401 upstream_error');
    upstream.enqueue({ kind: 'hang' });
    expect(await codeOf(call())).toBe('504 upstream_timeout');
    upstream.enqueue({ kind: 'json', body: { choices: [] } });
    expect(await codeOf(call())).toBe('502 upstream_error');
    upstream.enqueue({ kind: 'chat', content: 'late', delayMs: 150 });
    expect(await codeOf(call(50))).toBe('504 upstream_timeout');
    const none = createUpstreamClient({ settings: settingsWith({}), logger: silentLogger });
    expect(await codeOf(none.complete({ model: 'm', messages: [] }))).toBe(
      '503 no_upstream_configured',
    );
  });
});
