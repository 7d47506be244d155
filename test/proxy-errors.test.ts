import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { type EngineHarness, startEngine } from './helpers/engine-harness.ts';

/** A port that was free a moment ago and is closed now: connections are refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

let h: EngineHarness;
let client: OpenAI;
beforeAll(async () => {
  h = await startEngine({ config: { upstreamTimeoutMs: 300 } });
  client = new OpenAI({ baseURL: h.url + '/v1', apiKey: h.token, maxRetries: 0 });
});
afterAll(() => h?.stop());
beforeEach(() => h.upstream.reset());

const agent = { headers: { 'X-Osaurus-Agent-Id': 'agent-err' } };
const messages = [{ role: 'user' as const, content: 'Tell me a secret.' }];
const ask = () => client.chat.completions.create({ model: 'scripted-model', messages }, agent);
const askStream = () =>
  client.chat.completions.create({ model: 'scripted-model', stream: true, messages }, agent);

async function errorOf(p: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(OpenAI.APIError);
    return err as InstanceType<typeof OpenAI.APIError>;
  }
  throw new Error('expected an error');
}

const recorded = () =>
  (
    h.services.db
      .prepare(`SELECT count(*) AS n FROM transcript WHERE agent_id = 'agent-err'`)
      .get() as {
      n: number;
    }
  ).n;

describe('proxy: upstream failures become clean OpenAI-shaped errors', () => {
  it('passes an upstream 4xx through with its message', async () => {
    h.upstream.enqueue({ kind: 'error', status: 400, message: 'context length exceeded' });
    const err = await errorOf(ask());
    expect(err.status).toBe(400);
    expect(err.message).toMatch(/context length exceeded/);
    expect((err.error as { code?: string }).code).toBe('upstream_error');
  });

  it('maps an upstream 500 to 502 upstream_error', async () => {
    h.upstream.enqueue({ kind: 'error', status: 500, message: 'GPU on fire' });
    const err = await errorOf(ask());
    expect(err.status).toBe(502);
    expect((err.error as { code?: string }).code).toBe('upstream_error');
  });

  it('maps a hanging upstream to 504 upstream_timeout', async () => {
    h.upstream.enqueue({ kind: 'hang' });
    const started = Date.now();
    const err = await errorOf(ask());
    expect(err.status).toBe(504);
    expect((err.error as { code?: string }).code).toBe('upstream_timeout');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('maps a dropped connection to 502 upstream_unavailable', async () => {
    h.upstream.enqueue({ kind: 'drop' });
    const err = await errorOf(ask());
    expect(err.status).toBe(502);
    expect((err.error as { code?: string }).code).toBe('upstream_unavailable');
  });

  it('ends a stream broken mid-way with an error event and records nothing', async () => {
    h.upstream.enqueue({ kind: 'stream', chunks: ['Once ', 'upon ', 'a ', 'time'], breakAfter: 2 });
    const stream = await askStream();
    let text = '';
    const err = await errorOf(
      (async () => {
        for await (const part of stream) text += part.choices[0]?.delta?.content ?? '';
      })(),
    );
    expect(text).toBe('Once upon ');
    expect(err.message).toMatch(/closed the stream/);
    await h.idle();
    expect(recorded()).toBe(0);
  });

  it('ends a stream that stalls with a timeout error event and records nothing', async () => {
    h.upstream.enqueue({ kind: 'stream', chunks: ['Hello'], hangAfter: true });
    const stream = await askStream();
    const err = await errorOf(
      (async () => {
        for await (const _ of stream) {
          /* drain */
        }
      })(),
    );
    expect(err.message).toMatch(/stopped sending/);
    await h.idle();
    expect(recorded()).toBe(0);
  });

  it('answers 504 when a non-streamed answer stalls mid-body', async () => {
    h.upstream.enqueue({ kind: 'partial', text: '{"id":"x","choices":[' });
    const err = await errorOf(ask());
    expect(err.status).toBe(504);
    expect((err.error as { code?: string }).code).toBe('upstream_timeout');
    await h.idle();
    expect(recorded()).toBe(0);
  });

  it('aborts the upstream request when the client goes away', async () => {
    h.upstream.enqueue({ kind: 'stream', chunks: ['a ', 'b ', 'c ', 'd ', 'e'], delayMs: 100 });
    const controller = new AbortController();
    const stream = await client.chat.completions.create(
      { model: 'scripted-model', stream: true, messages: [{ role: 'user', content: 'go' }] },
      { ...agent, signal: controller.signal },
    );
    try {
      for await (const _ of stream) controller.abort();
    } catch {
      // the SDK may or may not throw on abort
    }
    await new Promise((r) => setTimeout(r, 250));
    expect(h.upstream.chatRequests()[0]!.clientAborted).toBe(true);
    await h.idle();
    expect(recorded()).toBe(0);
  });

  it('aborts a pending upstream call when the client gives up before the answer', async () => {
    h.upstream.enqueue({ kind: 'chat', content: 'too late', delayMs: 250 });
    const controller = new AbortController();
    const pending = client.chat.completions.create(
      { model: 'scripted-model', messages: [{ role: 'user', content: 'slow one' }] },
      { ...agent, signal: controller.signal },
    );
    await h.upstream.waitForChatRequests(1);
    controller.abort();
    await expect(pending).rejects.toThrow();
    await new Promise((r) => setTimeout(r, 400));
    expect(h.upstream.chatRequests()[0]!.clientAborted).toBe(true);
    await h.idle();
    expect(recorded()).toBe(0);
  });

  it('still serves after the failures', async () => {
    h.upstream.enqueue({ kind: 'chat', content: 'fine' });
    const res = await ask();
    expect(res.choices[0]!.message.content).toBe('fine');
  });
});

describe('proxy: upstream not reachable or not configured', () => {
  it('answers 502 upstream_unavailable when the provider refuses connections', async () => {
    const port = await closedPort();
    const refused = await startEngine({
      upstream: null,
      config: { upstreamUrl: `http://127.0.0.1:${port}/v1` },
    });
    try {
      const c = new OpenAI({ baseURL: refused.url + '/v1', apiKey: refused.token, maxRetries: 0 });
      const err = await errorOf(
        c.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] }),
      );
      expect(err.status).toBe(502);
      expect((err.error as { code?: string }).code).toBe('upstream_unavailable');
      expect(err.message, err.message).toMatch(/ECONNREFUSED/);
    } finally {
      await refused.stop();
    }
  });

  it('answers 503 no_upstream_configured with a clear message', async () => {
    const none = await startEngine({ upstream: null });
    try {
      const c = new OpenAI({ baseURL: none.url + '/v1', apiKey: none.token, maxRetries: 0 });
      const err = await errorOf(
        c.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] }),
      );
      expect(err.status).toBe(503);
      expect((err.error as { code?: string }).code).toBe('no_upstream_configured');
      expect(err.message).toMatch(/Settings/);
      const health = await none.api<{ upstream: { configured: boolean } }>('GET', '/health');
      expect(health.body.upstream.configured).toBe(false);
    } finally {
      await none.stop();
    }
  });
});
