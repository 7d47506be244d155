// A real HTTP server speaking Ollama's native API on 127.0.0.1:<free port>, for the tests of
// Cairn's /api/* pass-through (--ollama-upstream). It records every request byte for byte and
// answers with what an Ollama server sends: /api/chat and /api/generate as NDJSON streams
// (or one object with `stream: false`), /api/tags, /api/show, /api/version.
//
//   const ollama = await startScriptedOllama();
//   ollama.reply = ['Hel', 'lo'];           // the pieces of the next answers
//   ollama.url  → 'http://127.0.0.1:<port>' (give it to Cairn as ollamaUpstreamUrl)
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface OllamaRecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  rawBody: string;
}

export interface ScriptedOllama {
  url: string;
  requests: OllamaRecordedRequest[];
  /** The pieces every chat/generate answer is made of (default ['Hi', ' there']). */
  reply: string[];
  /** Models listed by /api/tags and known to /api/show. */
  models: string[];
  close(): Promise<void>;
}

export const SCRIPTED_OLLAMA_VERSION = '0.12.3-scripted';

export async function startScriptedOllama(): Promise<ScriptedOllama> {
  const requests: OllamaRecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const state = { reply: ['Hi', ' there'], models: ['llama3.2:1b'] };

  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (p: Buffer) => parts.push(p));
    req.on('end', () => {
      const rawBody = Buffer.concat(parts).toString('utf8');
      const path = (req.url ?? '/').split('?')[0]!;
      requests.push({ method: req.method ?? 'GET', path, headers: req.headers, rawBody });
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(body));
      };
      const body = (rawBody ? JSON.parse(rawBody) : {}) as {
        model?: string;
        stream?: boolean;
        messages?: unknown[];
      };
      if (path === '/api/version') return json(200, { version: SCRIPTED_OLLAMA_VERSION });
      if (path === '/api/tags') {
        return json(200, {
          models: state.models.map((name) => ({
            name,
            model: name,
            modified_at: '2026-01-02T03:04:05Z',
            size: 1234,
            digest: 'abc123',
            details: { family: 'llama', parameter_size: '1B', quantization_level: 'Q4_K_M' },
          })),
        });
      }
      if (path === '/api/show') {
        if (!state.models.includes(body.model ?? '')) {
          return json(404, { error: `model '${body.model}' not found` });
        }
        return json(200, {
          modelfile: '# scripted',
          parameters: 'stop "<|eot|>"',
          template: '{{ .Prompt }}',
          details: { family: 'llama', parameter_size: '1B' },
          model_info: { 'general.architecture': 'llama' },
          capabilities: ['completion'],
          modified_at: '2026-01-02T03:04:05Z',
        });
      }
      if (path !== '/api/chat' && path !== '/api/generate') {
        return json(404, { error: `no route ${path}` });
      }
      const chat = path === '/api/chat';
      const model = body.model ?? 'llama3.2:1b';
      const at = '2026-01-02T03:04:05Z';
      const piece = (text: string, done: boolean) =>
        chat
          ? { model, created_at: at, message: { role: 'assistant', content: text }, done }
          : { model, created_at: at, response: text, done };
      const closing = { done_reason: 'stop', eval_count: state.reply.length, total_duration: 1 };
      if (chat && (body.messages ?? []).length === 0) {
        return json(200, { ...piece('', true), done_reason: 'load' });
      }
      if (body.stream === false) {
        return json(200, { ...piece(state.reply.join(''), true), ...closing });
      }
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      for (const text of state.reply) res.write(JSON.stringify(piece(text, false)) + '\n');
      res.end(JSON.stringify({ ...piece('', true), ...closing }) + '\n');
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get reply() {
      return state.reply;
    },
    set reply(v: string[]) {
      state.reply = v;
    },
    get models() {
      return state.models;
    },
    set models(v: string[]) {
      state.models = v;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
