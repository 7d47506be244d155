// A real OpenAI-compatible HTTP server on 127.0.0.1:<free port> that answers what the test
// scripted: the only stand-in of the integration tests (DESIGN §13). It records every request
// it receives (method, path, headers, parsed body) and, for streams, when each chunk left.
//
//   const upstream = await startScriptedUpstream();
//   upstream.enqueue({ kind: 'chat', content: 'Hello!' });          // next /chat/completions
//   upstream.enqueue({ kind: 'stream', chunks: ['Hel', 'lo'], delayMs: 50 });
//   upstream.enqueue({ kind: 'error', status: 500, message: 'boom' });
//   upstream.enqueue({ kind: 'digest', digest: {...} });             // Core Model JSON answer
//   upstream.setDefault((req) => ({ kind: 'chat', content: 'ok' }));  // when the queue is empty
//   upstream.url  → 'http://127.0.0.1:<port>/v1'   (give it to Cairn as the upstream URL)
//
// Scripts for /chat/completions are taken from the queue in order; when it is empty the
// default answers (a `chat` with content "ok", streamed when the request asked for it).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body (undefined for GET). */
  body: unknown;
  rawBody: string;
  receivedAt: number;
  /** performance.now() when each stream chunk was written (streams only). */
  chunkSentAt: number[];
  /** Set when the response was fully written, or when the client went away. */
  finishedAt?: number;
  clientAborted?: boolean;
}

export type ScriptedResponse =
  /** A chat completion whose message is `content` (an SSE stream when the request asked). */
  | { kind: 'chat'; content: string; model?: string; delayMs?: number; chunkDelayMs?: number }
  /** A chat completion whose content is JSON.stringify(digest) (the Core Model's answer). */
  | { kind: 'digest'; digest: unknown; model?: string }
  /** An SSE stream of these content deltas, `delayMs` apart; `breakAfter` n chunks → socket destroyed. */
  | {
      kind: 'stream';
      chunks: string[];
      delayMs?: number;
      firstDelayMs?: number;
      breakAfter?: number;
      /** Stop after the chunks without finish_reason or [DONE] and without closing. */
      hangAfter?: boolean;
      model?: string;
    }
  /** Any status + JSON body, as given (plus response headers). */
  | {
      kind: 'json';
      status?: number;
      body: unknown;
      delayMs?: number;
      headers?: Record<string, string>;
    }
  /** Raw SSE events (`event:` line when given; string data as is), any stream format. */
  | { kind: 'sse'; events: { event?: string; data: unknown }[]; headers?: Record<string, string> }
  /** An OpenAI-shaped error. */
  | { kind: 'error'; status: number; message: string; code?: string }
  /** Never answers (until the server closes or the client aborts). */
  | { kind: 'hang' }
  /** A JSON answer whose body stops after `text` and never ends. */
  | { kind: 'partial'; text: string }
  /** Destroys the socket without an answer. */
  | { kind: 'drop' };

export type Responder = (request: RecordedRequest) => ScriptedResponse;

/** A chat completion that only calls the tool `name` (no arguments, finish_reason tool_calls). */
export function toolCallCompletion(name: string): ScriptedResponse {
  return {
    kind: 'json',
    body: {
      id: 'x',
      object: 'chat.completion',
      created: 0,
      model: 'm',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 't1', type: 'function', function: { name, arguments: '{}' } }],
          },
          finish_reason: 'tool_calls',
        },
      ],
    },
  };
}

export interface ScriptedUpstream {
  /** Base URL with the `/v1` prefix, as an OpenAI client or Cairn expects it. */
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** Requests to /v1/chat/completions only. */
  chatRequests(): RecordedRequest[];
  enqueue(...responses: ScriptedResponse[]): void;
  /**
   * Scripts for another POST path (e.g. `/v1/messages` of an Anthropic upstream,
   * `/v1/responses`), taken in order; a path with none left answers 404.
   */
  enqueueAt(path: string, ...responses: ScriptedResponse[]): void;
  setDefault(responder: Responder): void;
  /** Models listed by GET /v1/models. */
  models: string[];
  /** Resolves when `n` chat requests have been received. */
  waitForChatRequests(n: number, timeoutMs?: number): Promise<void>;
  reset(): void;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function completion(content: string, model: string) {
  return {
    id: 'chatcmpl-scripted',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      { index: 0, message: { role: 'assistant', content }, finish_reason: 'stop', logprobs: null },
    ],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
}

function chunk(model: string, delta: Record<string, unknown>, finish: string | null) {
  return {
    id: 'chatcmpl-scripted',
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
  };
}

export async function startScriptedUpstream(): Promise<ScriptedUpstream> {
  const requests: RecordedRequest[] = [];
  const queue: ScriptedResponse[] = [];
  const pathQueues = new Map<string, ScriptedResponse[]>();
  const sockets = new Set<Socket>();
  const waiters: { n: number; resolve: () => void }[] = [];
  let responder: Responder = () => ({ kind: 'chat', content: 'ok' });
  const state = { models: ['scripted-model', 'scripted-core'] };

  const chatRequests = () => requests.filter((r) => r.path === '/v1/chat/completions');

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const parts: Buffer[] = [];
    for await (const part of req) parts.push(part as Buffer);
    const rawBody = Buffer.concat(parts).toString('utf8');
    const path = (req.url ?? '/').split('?')[0]!;
    let body: unknown;
    try {
      body = rawBody ? JSON.parse(rawBody) : undefined;
    } catch {
      body = undefined;
    }
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path,
      headers: req.headers,
      body,
      rawBody,
      receivedAt: performance.now(),
      chunkSentAt: [],
    };
    requests.push(record);
    res.on('close', () => {
      record.finishedAt ??= performance.now();
      if (!res.writableFinished) record.clientAborted = true;
    });
    for (const w of waiters.splice(0)) {
      if (chatRequests().length >= w.n) w.resolve();
      else waiters.push(w);
    }

    if (req.method === 'GET' && path === '/v1/models') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          object: 'list',
          data: state.models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'test' })),
        }),
      );
      return;
    }
    if (req.method === 'POST' && path === '/v1/completions') {
      // Text completions (raw prompts, fill-in-the-middle): the queued chat's content as text.
      const script = queue.shift() ?? responder(record);
      const text = script.kind === 'chat' ? script.content : 'ok';
      const model = (body as { model?: string } | undefined)?.model ?? 'scripted-model';
      const choice = { index: 0, text, finish_reason: 'stop', logprobs: null };
      if ((body as { stream?: boolean } | undefined)?.stream === true) {
        res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
        writeSse(res, record, { object: 'text_completion', model, choices: [choice] });
        writeSse(res, record, '[DONE]');
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'text_completion', model, choices: [choice] }));
      return;
    }
    const pathScript = req.method === 'POST' ? pathQueues.get(path)?.shift() : undefined;
    if (pathScript) {
      const wants = (body as { stream?: boolean } | undefined)?.stream === true;
      await play(pathScript, res, record, wants, 'scripted-model');
      return;
    }
    if (req.method !== 'POST' || path !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `no route ${path}`, type: 'not_found' } }));
      return;
    }

    const script = queue.shift() ?? responder(record);
    const wantsStream = (body as { stream?: boolean } | undefined)?.stream === true;
    const model = (body as { model?: string } | undefined)?.model ?? 'scripted-model';
    const usage = (body as { stream_options?: { include_usage?: boolean } } | undefined)
      ?.stream_options?.include_usage;
    await play(script, res, record, wantsStream, model, usage === true);
  };

  const writeSse = (res: ServerResponse, record: RecordedRequest, data: unknown): void => {
    res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
    record.chunkSentAt.push(performance.now());
  };

  const play = async (
    script: ScriptedResponse,
    res: ServerResponse,
    record: RecordedRequest,
    wantsStream: boolean,
    model: string,
    /** The client asked for the usage chunk at the end of a stream (stream_options). */
    includeUsage = false,
  ): Promise<void> => {
    switch (script.kind) {
      case 'chat': {
        if (script.delayMs) await sleep(script.delayMs);
        if (wantsStream) {
          const words = script.content.match(/\S+\s*/g) ?? [script.content];
          return play(
            {
              kind: 'stream',
              chunks: words,
              delayMs: script.chunkDelayMs ?? 0,
              model: script.model,
            },
            res,
            record,
            true,
            model,
            includeUsage,
          );
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(completion(script.content, script.model ?? model)));
        return;
      }
      case 'digest':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(completion(JSON.stringify(script.digest), script.model ?? model)));
        return;
      case 'stream': {
        const m = script.model ?? model;
        res.writeHead(200, {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-cache',
          connection: 'keep-alive',
        });
        res.flushHeaders();
        if (script.firstDelayMs) await sleep(script.firstDelayMs);
        writeSse(res, record, chunk(m, { role: 'assistant', content: '' }, null));
        for (let i = 0; i < script.chunks.length; i++) {
          if (script.breakAfter !== undefined && i >= script.breakAfter) {
            await sleep(30); // let the chunks already written reach the client first
            res.socket?.destroy();
            return;
          }
          if (i > 0 && script.delayMs) await sleep(script.delayMs);
          if (res.destroyed) return;
          writeSse(res, record, chunk(m, { content: script.chunks[i] }, null));
        }
        if (script.breakAfter !== undefined && script.breakAfter >= script.chunks.length) {
          await sleep(30);
          res.socket?.destroy();
          return;
        }
        if (script.hangAfter) return;
        writeSse(res, record, chunk(m, {}, 'stop'));
        if (includeUsage) {
          writeSse(res, record, {
            ...chunk(m, {}, null),
            choices: [],
            usage: {
              prompt_tokens: 10,
              completion_tokens: script.chunks.length,
              total_tokens: 10 + script.chunks.length,
            },
          });
        }
        writeSse(res, record, '[DONE]');
        res.end();
        return;
      }
      case 'json':
        if (script.delayMs) await sleep(script.delayMs);
        res.writeHead(script.status ?? 200, {
          'content-type': 'application/json',
          ...script.headers,
        });
        res.end(JSON.stringify(script.body));
        return;
      case 'sse':
        res.writeHead(200, {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-cache',
          ...script.headers,
        });
        for (const e of script.events) {
          const data = typeof e.data === 'string' ? e.data : JSON.stringify(e.data);
          res.write(`${e.event ? `event: ${e.event}\n` : ''}data: ${data}\n\n`);
          record.chunkSentAt.push(performance.now());
        }
        res.end();
        return;
      case 'error':
        res.writeHead(script.status, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            error: { message: script.message, type: 'scripted_error', code: script.code ?? null },
          }),
        );
        return;
      case 'hang':
        return;
      case 'partial':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(script.text);
        return;
      case 'drop':
        res.socket?.destroy();
        return;
    }
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(err));
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    chatRequests,
    get models() {
      return state.models;
    },
    set models(v: string[]) {
      state.models = v;
    },
    enqueue: (...responses) => {
      queue.push(...responses);
    },
    enqueueAt: (path, ...responses) => {
      pathQueues.set(path, [...(pathQueues.get(path) ?? []), ...responses]);
    },
    setDefault: (r) => {
      responder = r;
    },
    waitForChatRequests: (n, timeoutMs = 5000) =>
      new Promise<void>((resolve, reject) => {
        if (chatRequests().length >= n) return resolve();
        const timer = setTimeout(
          () => reject(new Error(`expected ${n} chat requests, got ${chatRequests().length}`)),
          timeoutMs,
        );
        waiters.push({
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      }),
    reset: () => {
      requests.length = 0;
      queue.length = 0;
      pathQueues.clear();
      responder = () => ({ kind: 'chat', content: 'ok' });
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
