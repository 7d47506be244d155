// `cairn serve` wires the per-format upstreams (DESIGN §9): CAIRN_ANTHROPIC_URL and
// CAIRN_ANTHROPIC_API_KEY send /v1/messages to an Anthropic provider in its own format, and
// CAIRN_UPSTREAM_RESPONSES=1 passes /v1/responses through to the OpenAI-compatible upstream.
import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedUpstream, type ScriptedUpstream } from './helpers/scripted-upstream.ts';
import { startServeChild } from './helpers/serve-child.ts';
import { tempDir } from './helpers/temp-db.ts';

let upstream: ScriptedUpstream;
let child: ChildProcess;
let url: string;
let stderr: () => string;
let cleanup: () => void;
const token = 'cli-formats-token';

beforeAll(async () => {
  upstream = await startScriptedUpstream();
  const dir = tempDir();
  cleanup = dir.cleanup;
  ({ child, url, stderr } = await startServeChild({
    dataDir: dir.dir,
    dbKey: randomBytes(32).toString('hex'),
    token,
    upstreamUrl: upstream.url,
    env: {
      CAIRN_ANTHROPIC_URL: `http://127.0.0.1:${upstream.port}`,
      CAIRN_ANTHROPIC_API_KEY: 'sk-ant-from-env',
      CAIRN_UPSTREAM_RESPONSES: '1',
    },
  }));
}, 30_000);
afterAll(async () => {
  child?.kill('SIGINT');
  if (child && child.exitCode === null) await new Promise((r) => child.once('exit', r));
  await upstream?.close();
  cleanup?.();
});

const post = (path: string, body: unknown, headers: Record<string, string>) =>
  fetch(url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

describe('cairn serve with per-format upstreams', () => {
  it('starts without a Node or library warning (deprecations included)', () => {
    // Node prints process warnings as "(node:<pid>) [CODE] …Warning: …" on stderr.
    expect(stderr()).not.toMatch(/\(node:\d+\)|Warning:/u);
  });

  it('passes Anthropic Messages to CAIRN_ANTHROPIC_URL with CAIRN_ANTHROPIC_API_KEY', async () => {
    upstream.enqueueAt('/v1/messages', { kind: 'json', body: { type: 'message', content: [] } });
    const res = await post(
      '/v1/messages',
      { model: 'claude-x', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] },
      { 'x-api-key': token, 'anthropic-version': '2023-06-01' },
    );
    expect(res.status).toBe(200);
    const got = upstream.requests.find((r) => r.path === '/v1/messages')!;
    expect(got.headers['x-api-key']).toBe('sk-ant-from-env');
    expect(got.headers['anthropic-version']).toBe('2023-06-01');
  });

  it('passes Responses through with CAIRN_UPSTREAM_RESPONSES=1', async () => {
    upstream.enqueueAt('/v1/responses', { kind: 'json', body: { id: 'resp_1', output: [] } });
    const res = await post(
      '/v1/responses',
      { model: 'gpt-x', input: 'hi' },
      { authorization: `Bearer ${token}` },
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: 'resp_1', output: [] });
    expect(upstream.chatRequests()).toHaveLength(0);
  });
});
