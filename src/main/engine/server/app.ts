import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import { ErrorCode } from '../../../shared/errors.ts';
import type { Activity } from '../activity.ts';
import { CairnError } from '../errors.ts';
import type { EngineServices, UpstreamClient } from '../services.ts';
import { type BackgroundTasks, createBackgroundTasks } from './background.ts';
import { registerErrorHandler } from './error-handler.ts';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from './json-depth.ts';
import { registerAgentRoutes } from './routes/agents.ts';
import { registerHealthRoutes } from './routes/health.ts';
import { registerIngestRoutes } from './routes/ingest.ts';
import { registerProxyRoutes } from './routes/proxy.ts';
import { registerSettingsRoutes } from './routes/settings.ts';
import { registerRecoveryKeyRoutes } from './routes/recovery-key.ts';
import { registerMemoryAdminRoutes } from './routes/memory-admin.ts';
import { registerMemoryReadRoutes } from './routes/memory-read.ts';
import { registerMcpRoutes } from './routes/mcp.ts';
import { registerOllamaRoutes } from './routes/ollama.ts';
import { registerAnthropicRoutes } from './routes/anthropic.ts';
import { registerResponsesRoutes } from './routes/responses.ts';
import { registerBackupRoutes } from './routes/backup.ts';
import { registerTrashRoutes } from './routes/trash.ts';
import { registerTransferRoutes } from './routes/transfer.ts';
import { registerActivityRoutes } from './routes/activity.ts';
import { registerEmbedderRoutes } from './routes/embedder.ts';
import { registerSecurity } from './security.ts';
import { createInlineTranscriptWriter, type TranscriptWriter } from '../store/transcript-writer.ts';
import { registerStaticUi } from './static-ui.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The JSON body as received, forwarded byte for byte when nothing is injected. */
    rawBody?: string;
  }
}

export const MiB = 1024 * 1024;

export interface AppOptions {
  /** Default body limit (bytes) for routes without their own. */
  bodyLimit?: number;
  /** POST /v1/chat/completions (default 10 MiB). */
  chatBodyLimit?: number;
  /** POST /memory/ingest (default 64 MiB: 10k turns of real conversations). */
  ingestBodyLimit?: number;
  /** Extra Host names besides loopback (only when the user binds elsewhere on purpose). */
  allowedHosts?: string[];
  /** Extra browser origins (e.g. the desktop renderer's), besides the server's own. */
  allowedOrigins?: string[];
  /** Where the built web UI lives (served at `/`; a placeholder page when not built). */
  staticUiDir?: string;
  /** Background work after responses; created when not given, drained on close. */
  background?: BackgroundTasks;
  /** Where turns are written (the engine's worker thread); inline on services.db if absent. */
  transcriptWriter?: TranscriptWriter;
  /**
   * Counts the requests in flight on the socket; work deferred with `runWhenQuiet` waits
   * until there are none (default: not counted).
   */
  activity?: Activity;
  /** Ollama's native API upstream; absent: /api/* is translated to the OpenAI upstream. */
  ollamaUpstream?: UpstreamClient | null;
  /** Anthropic upstream; absent: /v1/messages is translated to the OpenAI upstream. */
  anthropicUpstream?: UpstreamClient | null;
  /** The OpenAI upstream speaks /responses: pass Responses requests through (else translate). */
  upstreamResponses?: boolean;
}

/**
 * Builds the HTTP app (routes, auth, errors) without listening, so tests can `inject()`
 * and the engine can decide where to listen (fastify/demo: build in one place, listen in
 * another).
 */
export function buildApp(services: EngineServices, options: AppOptions = {}): FastifyInstance {
  const background =
    options.background ??
    createBackgroundTasks(services.logger.child('jobs'), { activity: options.activity });
  const writer = options.transcriptWriter ?? createInlineTranscriptWriter(services.db);
  const httpLog = services.logger.child('http');
  const fastifyLog: FastifyBaseLogger = httpLog.pino;
  const app = Fastify({
    // fastify's own lines (an error after a reply was sent, a broken stream) go through the
    // engine's pino instance with its redaction. Its two lines per request are off: they would
    // double the one below, and Cairn's names the route pattern, never the URL.
    loggerInstance: fastifyLog,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: options.bodyLimit ?? 1 * MiB,
    // Keep-alive clients (every OpenAI SDK) reuse the connection between calls.
    keepAliveTimeout: 65_000,
    forceCloseConnections: true,
    return503OnClosing: true,
  });

  // JSON only (anything else → 415). JSON bodies are kept as text too: a pass-through
  // request is forwarded as it came.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(['application/json'], { parseAs: 'string' }, (request, body, done) => {
    // A UTF-8 byte order mark (Windows tools, PowerShell) is not part of the JSON.
    const text = (body as string).replace(/^\uFEFF/, '');
    if (text.trim() === '') {
      done(new CairnError(ErrorCode.InvalidJson, 'The request body is empty; send JSON.'));
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      done(
        new CairnError(
          ErrorCode.InvalidJson,
          `The request body is not valid JSON (${(err as Error).message}).`,
        ),
      );
      return;
    }
    // What runs after parsing (serialising, schemas) recurses: a deeper body would overflow
    // the stack there and answer 500.
    if (exceedsJsonDepth(parsed, MAX_JSON_DEPTH)) {
      done(
        new CairnError(
          ErrorCode.BadRequest,
          `The request body nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep.`,
        ),
      );
      return;
    }
    request.rawBody = text;
    done(null, parsed);
  });

  const activity = options.activity;
  if (activity) {
    const end = () => activity.end();
    app.server.on('request', (_req, res) => {
      activity.begin();
      res.once('close', end);
    });
  }

  registerErrorHandler(app, httpLog);
  if (httpLog.level === 'debug') {
    // Method, route, status and time only: never bodies or headers.
    app.addHook('onResponse', async (request, reply) => {
      httpLog.debug('request', {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      });
    });
  }
  registerSecurity(app, {
    token: services.token,
    allowedHosts: options.allowedHosts,
    allowedOrigins: options.allowedOrigins,
  });

  registerHealthRoutes(app, services);
  registerProxyRoutes(app, services, {
    background,
    writer,
    chatBodyLimit: options.chatBodyLimit ?? 10 * MiB,
  });
  registerOllamaRoutes(app, services, {
    background,
    writer,
    chatBodyLimit: options.chatBodyLimit ?? 10 * MiB,
    ollamaUpstream: options.ollamaUpstream ?? null,
  });
  registerAnthropicRoutes(app, services, {
    background,
    writer,
    bodyLimit: options.chatBodyLimit ?? 10 * MiB,
    anthropicUpstream: options.anthropicUpstream ?? null,
  });
  registerResponsesRoutes(app, services, {
    background,
    writer,
    bodyLimit: options.chatBodyLimit ?? 10 * MiB,
    passThrough: options.upstreamResponses === true,
  });
  registerIngestRoutes(app, services, {
    background,
    writer,
    ingestBodyLimit: options.ingestBodyLimit ?? 64 * MiB,
  });
  registerAgentRoutes(app, services);
  registerSettingsRoutes(app, services);
  registerRecoveryKeyRoutes(app, services);
  registerMemoryReadRoutes(app, services);
  registerMemoryAdminRoutes(app, services);
  registerMcpRoutes(app, services);
  registerBackupRoutes(app, services);
  registerTrashRoutes(app, services);
  registerTransferRoutes(app, services, {
    background,
    writer,
    importBodyLimit: options.ingestBodyLimit ?? 64 * MiB,
  });
  registerActivityRoutes(app, services);
  registerEmbedderRoutes(app, services);
  if (options.staticUiDir !== undefined) registerStaticUi(app, { rootDir: options.staticUiDir });

  app.addHook('onClose', async () => {
    await background.drain(5000);
  });
  return app;
}

export interface ListenOptions {
  host: string;
  port: number;
}

/** Listens and resolves with the URL clients use (`http://127.0.0.1:<port>`). */
export async function listen(app: FastifyInstance, options: ListenOptions): Promise<string> {
  try {
    await app.listen({ host: options.host, port: options.port });
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      throw new CairnError(
        ErrorCode.Conflict,
        code === 'EADDRINUSE'
          ? `Port ${options.port} on ${options.host} is already in use (is Cairn already running?). Choose another with --port.`
          : `Cannot listen on ${options.host}:${options.port} (${code}).`,
        { status: 500, cause: err },
      );
    }
    throw err;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return `http://${host}:${port}`;
}
