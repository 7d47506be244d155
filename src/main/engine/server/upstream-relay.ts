// Handing an upstream provider's answer to the client: the steps every forwarding route shares
// (OpenAI chat completions, Anthropic Messages and OpenAI Responses passed through or
// translated, Ollama). A client that goes away ends its request quietly; an upstream that breaks
// off is a 502 in the client's own format.
import type { FastifyReply } from 'fastify';
import { ErrorCode } from '../../../shared/errors.ts';
import { CairnError, isCairnError } from '../errors.ts';
import type { EngineServices, UpstreamClient } from '../services.ts';
import type { ForwardRequest, UpstreamResponse } from '../upstream/upstream-client.ts';
import type { MemoryTurn } from './memory-turn.ts';

/** The client closed the connection: nothing can be sent; end the request quietly. */
export function clientGone(reply: FastifyReply): FastifyReply {
  reply.hijack();
  if (!reply.raw.destroyed) reply.raw.destroy();
  return reply;
}

/** Aborts when the client goes away before the response was fully written. */
export function clientAbortSignal(reply: FastifyReply): AbortController {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller;
}

/** The 502 of an answer the upstream cut off after it began. */
function cutOff(what: 'connection' | 'stream', cause?: unknown): CairnError {
  return new CairnError(
    ErrorCode.UpstreamError,
    `The upstream provider closed the ${what} before the answer was complete.`,
    { status: 502, cause },
  );
}

/**
 * Forwards a request for the client. Resolves null when the client went away meanwhile (its
 * reply is then ended quietly); the upstream's own failures are thrown as they are.
 */
export async function forwardForClient(
  reply: FastifyReply,
  upstream: UpstreamClient,
  request: Omit<ForwardRequest, 'signal'>,
  abort: AbortController,
): Promise<UpstreamResponse | null> {
  try {
    return await upstream.forward({ ...request, signal: abort.signal });
  } catch (err) {
    if (abort.signal.aborted && !isCairnError(err)) {
      clientGone(reply);
      return null;
    }
    throw err;
  }
}

/** The text of a whole upstream answer; one cut off before its end is a 502. */
export async function readAnswer(res: UpstreamResponse): Promise<string> {
  try {
    return await res.text();
  } catch (err) {
    if (isCairnError(err)) throw err;
    throw cutOff('connection', err);
  }
}

/** The text of a whole upstream answer; null when the client went away meanwhile. */
export async function readWhole(
  res: UpstreamResponse,
  abort: AbortController,
): Promise<string | null> {
  try {
    return await readAnswer(res);
  } catch (err) {
    if (abort.signal.aborted) return null;
    throw err;
  }
}

/** An upstream answer read as JSON (by `read`); one it cannot read is the upstream's fault (502). */
export function parseUpstreamJson<T>(
  text: string,
  read: (json: string) => T = (json) => JSON.parse(json) as T,
): T {
  try {
    return read(text);
  } catch (err) {
    throw new CairnError(ErrorCode.UpstreamError, 'The upstream provider sent invalid JSON.', {
      status: 502,
      cause: err,
    });
  }
}

/** How a stream is shown to the client: as it came, or translated to another format. */
export interface StreamShape {
  /** The content type of the client's stream (default: the upstream's). */
  contentType?: string;
  /** What the client gets for an upstream chunk ('' = nothing yet); default: the chunk. */
  translate?(chunk: Buffer): string | Buffer;
  /** Written after the upstream ended properly (a translated stream's closing events). */
  end?(): string;
  /** The event that tells the client the stream failed, in its format. */
  errorEvent(err: CairnError): string;
}

/**
 * Writes each upstream chunk to the client as it arrives (no buffering) and keeps a copy
 * for recording. Resolves ok=false when the client left, the upstream broke off, or it went
 * silent for longer than the timeout (the client then gets an error event).
 */
export function pipeStream(
  reply: FastifyReply,
  res: UpstreamResponse,
  upstream: UpstreamClient,
  abort: AbortController,
  log: EngineServices['logger'],
  shape: StreamShape,
): Promise<{ sse: string; ok: boolean }> {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(res.status, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': shape.contentType ?? res.contentType ?? 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  raw.flushHeaders();
  const body = res.body;
  const chunks: Buffer[] = [];
  const idleMs = upstream.timeoutMs();

  return new Promise((resolve) => {
    let done = false;
    let idle: NodeJS.Timeout | undefined;
    const finish = (failure: CairnError | null, ok: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(idle);
      body.off('data', onData);
      if (!body.destroyed && !ok) body.destroy();
      if (ok && shape.end && !raw.writableEnded && !raw.destroyed) raw.write(shape.end());
      if (failure && !raw.writableEnded && !raw.destroyed) raw.write(shape.errorEvent(failure));
      if (!raw.writableEnded) raw.end();
      resolve({ sse: ok ? Buffer.concat(chunks).toString('utf8') : '', ok });
    };
    const armIdle = () => {
      clearTimeout(idle);
      idle = setTimeout(
        () =>
          finish(
            new CairnError(
              ErrorCode.UpstreamTimeout,
              `The upstream provider stopped sending for ${Math.round(idleMs / 1000)} s.`,
            ),
            false,
          ),
        idleMs,
      );
    };
    const onData = (chunk: Buffer) => {
      if (abort.signal.aborted) return;
      const out = shape.translate ? shape.translate(chunk) : chunk;
      if (out.length > 0) raw.write(out);
      chunks.push(chunk);
      armIdle();
    };
    armIdle();
    body.on('data', onData);
    body.once('end', () => finish(null, !abort.signal.aborted));
    body.once('error', (err) => {
      if (abort.signal.aborted) return finish(null, false);
      log.warn('upstream stream broke', { err: err.message });
      finish(cutOff('stream'), false);
    });
    body.once('close', () => {
      if (done) return;
      if (abort.signal.aborted) return finish(null, false);
      finish(cutOff('stream'), false);
    });
    abort.signal.addEventListener('abort', () => finish(null, false), { once: true });
  });
}

/** A request passed through to an upstream of the client's own format. */
export interface PassThrough {
  reply: FastifyReply;
  upstream: UpstreamClient;
  request: Omit<ForwardRequest, 'signal'>;
  abort: AbortController;
  log: EngineServices['logger'];
  /** How the stream fails in the client's format. */
  stream: StreamShape;
  /** The memory turn the answer is recorded for (null: nothing is recorded). */
  turn: MemoryTurn | null;
  /** The assistant text of the streamed body, and whether it reached its end. */
  streamedText(sse: string): { text: string; completed: boolean };
  /** The assistant text of a whole answer (null: not one, nothing is recorded). */
  wholeText(body: string): string | null;
  /** Runs once the upstream answered (a route passing on the provider's headers). */
  onResponse?(res: UpstreamResponse): void;
  /** Runs before a whole answer is sent (a route's bookkeeping for its own error shape). */
  beforeWhole?(): void;
}

/**
 * Forwards the request and hands the answer on as it came: a successful event stream piped
 * through, anything else read whole and sent with the upstream's status and content type. The
 * text of a successful answer is recorded for the memory turn at a quiet moment (nobody waits
 * for the parsing), a stream's only when it completed; an error (from an upstream asked for
 * any status) is passed on and not recorded.
 */
export async function passThrough(p: PassThrough): Promise<FastifyReply> {
  const { reply, turn } = p;
  const res = await forwardForClient(reply, p.upstream, p.request, p.abort);
  if (res === null) return reply;
  p.onResponse?.(res);
  const succeeded = res.status >= 200 && res.status < 300;
  if (succeeded && isEventStream(res)) {
    const { sse, ok } = await pipeStream(reply, res, p.upstream, p.abort, p.log, p.stream);
    if (ok && turn) {
      turn.recordAnswer(() => {
        const { text, completed } = p.streamedText(sse);
        return completed ? text : null;
      });
    }
    return reply;
  }
  const text = await readWhole(res, p.abort);
  if (text === null) return clientGone(reply);
  p.beforeWhole?.();
  reply
    .code(res.status)
    .header('content-type', res.contentType ?? 'application/json')
    .send(text);
  if (turn && succeeded) turn.recordAnswer(() => p.wholeText(text));
  return reply;
}

/** Whether the upstream answered with a server-sent event stream. */
export function isEventStream(res: UpstreamResponse): boolean {
  return (res.contentType ?? '').includes('event-stream');
}
