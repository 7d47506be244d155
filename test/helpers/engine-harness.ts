// Starts a real Cairn engine for integration tests: a temporary data directory, an explicit
// database key (no keychain), a fixed access token, port 0 on 127.0.0.1, and a scripted
// upstream LLM server (test/helpers/scripted-upstream.ts) as its provider.
//
//   const h = await startEngine();                     // everything default
//   const client = new OpenAI({ baseURL: h.url + '/v1', apiKey: h.token });
//   h.upstream.enqueue({ kind: 'chat', content: 'Hi' });
//   await h.api('POST', '/memory/search', { agent_id: 'a', scope: 'transcript', query: 'x' });
//   await h.idle();                                    // background recording settled
//   await h.stop();                                    // engine, upstream, temp dir
//
// Options pass through to createEngine (e.g. `config: { upstreamTimeoutMs: 300 }`, an
// `embedder` pointing at test/fixtures/tiny-model, `distiller` timings, `writerWorker: false`
// to write turns on the main thread), and `dataDir` + `dbKey` restart on the same data.
// Embeddings are off unless `config.embedder` says otherwise; `/` shows the UI placeholder.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Engine, type EngineConfig, createEngine } from '../../src/main/engine/engine.ts';
import { createLogger, type Logger, type LogLevel } from '../../src/main/engine/logger.ts';
import type { EngineServices } from '../../src/main/engine/services.ts';
import { committed } from './committed.ts';
import { type ScriptedUpstream, startScriptedUpstream } from './scripted-upstream.ts';

export interface EngineHarnessOptions {
  /** Reuse a data directory (e.g. to restart); it is then not removed by stop(). */
  dataDir?: string;
  /** 64 hex characters; random by default. Pass the previous harness's `dbKey` to reopen. */
  dbKey?: string;
  token?: string;
  /** An upstream to reuse; by default a fresh scripted one is started (and closed by stop). */
  upstream?: ScriptedUpstream | null;
  /** Extra engine config (embedder, timeouts, clock, coreModel...). */
  config?: Partial<EngineConfig>;
  /** Log level (default 'silent'); lines are kept in `logs` either way when not silent. */
  logLevel?: LogLevel;
}

export interface EngineHarness {
  /** http://127.0.0.1:<port> (add /v1 for OpenAI clients). */
  url: string;
  token: string;
  dbKey: string;
  dataDir: string;
  engine: Engine;
  services: EngineServices;
  /** The scripted upstream, or null when started with `upstream: null`. */
  upstream: ScriptedUpstream;
  logs: string[];
  logger: Logger;
  /** Authenticated JSON call; resolves with status and parsed body. */
  api<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: T }>;
  /** Waits until background work (turn recording, indexing) has settled. */
  idle(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startEngine(options: EngineHarnessOptions = {}): Promise<EngineHarness> {
  const ownDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'cairn-engine-'));
  const dbKey = options.dbKey ?? randomBytes(32).toString('hex');
  const token = options.token ?? 'test-token-' + randomBytes(8).toString('hex');
  const ownUpstream = options.upstream === undefined;
  const upstream = options.upstream ?? (ownUpstream ? await startScriptedUpstream() : null);
  const logs: string[] = [];
  const logger = createLogger({ level: options.logLevel ?? 'silent', sink: (l) => logs.push(l) });

  let engine: Engine;
  try {
    engine = await createEngine({
      dataDir,
      port: 0,
      dbKey,
      token,
      useKeychain: false,
      env: {},
      logger,
      upstreamUrl: upstream?.url,
      embedder: { backend: 'none' },
      staticUiDir: join(dataDir, 'no-static-ui'),
      // No Core Model unless a test asks for one: in auto mode the distiller would send its
      // requests to the scripted upstream, where they take answers queued for the test and
      // show up among the requests it inspects.
      coreModel: 'off',
      ...options.config,
    });
  } catch (err) {
    if (ownUpstream) await upstream?.close();
    if (ownDir) rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  let url: string;
  try {
    ({ url } = await engine.start());
  } catch (err) {
    await engine.stop();
    if (ownUpstream) await upstream?.close();
    if (ownDir) rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }

  const api: EngineHarness['api'] = async (method, path, body, headers = {}) => {
    const res = await fetch(url + path, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body: parsed as never };
  };

  let stopped = false;
  return {
    url,
    token,
    dbKey,
    dataDir,
    engine,
    services: engine.services,
    upstream: upstream as ScriptedUpstream,
    logs,
    logger,
    api,
    idle: async (timeoutMs = 5000) => {
      const deadline = Date.now() + timeoutMs;
      // Background tasks are scheduled with setImmediate after the response: let them start.
      await new Promise((r) => setTimeout(r, 5));
      await engine.background.drain(Math.max(0, deadline - Date.now()));
      // What waits to share a later commit (new rows' vectors) is written too.
      await committed(engine.services.db);
    },
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await engine.stop();
      if (ownUpstream) await upstream?.close();
      if (ownDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
