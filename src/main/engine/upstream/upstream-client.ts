import {
  Agent as HttpAgent,
  type IncomingHttpHeaders,
  type IncomingMessage,
  request as httpRequest,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { ErrorCode } from '../../../shared/errors.ts';
import { displayUrl } from '../../../shared/urls.ts';
import { CairnError, isCairnError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type {
  CompletionOptions,
  CompletionResult,
  SettingsService,
  UpstreamClient,
} from '../services.ts';

// The user's model provider, spoken to in the OpenAI wire format over plain node:http(s)
// with keep-alive agents (no SDK). fetch() was the first choice; measured on the proxy's hot
// path it cost ~0.1-0.2 ms more per request (its body goes through a web stream and is
// written in pieces), so the transport is the lower-level client and the answer body is read
// as a Node stream. Every failure becomes a CairnError with an OpenAI-shaped code so the
// proxy can answer the client with a clear status instead of a stack.

export interface UpstreamConfig {
  /** From the CLI/env; wins over the providers of the settings when given. */
  upstreamUrl?: string;
  upstreamApiKey?: string;
  /** Time allowed until the provider answers with headers, and between two stream chunks. */
  timeoutMs?: number;
  /**
   * How the API key is sent: `authorization` (Bearer, OpenAI-compatible providers) or
   * `x-api-key` (Anthropic). Default authorization.
   */
  apiKeyHeader?: 'authorization' | 'x-api-key';
  /** false: only `upstreamUrl` is used, never the providers of the settings. Default true. */
  useSettingsProviders?: boolean;
}

export interface UpstreamTarget {
  baseUrl: string;
  apiKey: string | null;
  source: 'config' | 'provider';
}

export interface ForwardRequest {
  method: 'GET' | 'POST';
  /** Path below the provider's base URL, e.g. `/chat/completions`. */
  path: string;
  /** A JSON body, already serialised (forwarded byte for byte). */
  body?: string;
  signal?: AbortSignal;
  /** Extra request headers (e.g. the client's `anthropic-version` on a pass-through). */
  headers?: Record<string, string>;
  /** Resolve with non-2xx answers too, untouched (a pass-through shows the provider's error). */
  anyStatus?: boolean;
}

/** A 2xx answer of the provider; the body is read once, as text or chunk by chunk. */
export interface UpstreamResponse {
  status: number;
  contentType: string | null;
  /** The provider's response headers (retry-after, request ids, ...). */
  headers: IncomingHttpHeaders;
  /** The body as a Node stream (chunks as they arrive). Errors if the answer is cut short. */
  body: IncomingMessage;
  /** The whole body; rejects when the connection closed before it was complete. */
  text(): Promise<string>;
}

export const DEFAULT_UPSTREAM_TIMEOUT_MS = 300_000;

export interface UpstreamClientOptions {
  /** Read for the active provider on every call. */
  settings: Pick<SettingsService, 'get'>;
  config?: UpstreamConfig;
  logger: Logger;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/**
 * Reads a whole body; rejects when the connection closed before the end, or with
 * upstream_timeout when no byte arrived for `idleMs`.
 */
export function readBody(res: IncomingMessage, idleMs?: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      if (idleMs === undefined) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        const err = new CairnError(
          ErrorCode.UpstreamTimeout,
          `The upstream provider stopped sending for ${Math.round(idleMs / 1000)} s.`,
        );
        reject(err);
        res.destroy(err);
      }, idleMs);
    };
    arm();
    res.on('data', (chunk: Buffer) => {
      parts.push(chunk);
      arm();
    });
    res.once('end', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(parts).toString('utf8'));
    });
    res.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    res.once('close', () => {
      clearTimeout(timer);
      if (!res.complete) reject(new Error('the connection closed before the answer was complete'));
    });
  });
}

/** Turns a non-2xx provider answer into a CairnError carrying the provider's message. */
export async function upstreamHttpError(res: {
  status: number;
  text(): Promise<string>;
}): Promise<CairnError> {
  let message = '';
  try {
    const text = await res.text();
    try {
      const json = JSON.parse(text) as {
        error?: { message?: unknown } | string;
        message?: unknown;
      };
      const e = json.error;
      message =
        typeof e === 'string'
          ? e
          : typeof e?.message === 'string'
            ? e.message
            : typeof json.message === 'string'
              ? json.message
              : '';
    } catch {
      message = text.slice(0, 500);
    }
  } catch {
    // body unreadable: status alone
  }
  const detail = message ? `: ${message}` : '';
  if (res.status >= 400 && res.status < 500) {
    return new CairnError(
      ErrorCode.UpstreamError,
      `The upstream provider rejected the request (HTTP ${res.status})${detail}`,
      { status: res.status },
    );
  }
  return new CairnError(
    ErrorCode.UpstreamError,
    `The upstream provider failed (HTTP ${res.status})${detail}`,
    { status: 502 },
  );
}

function networkError(err: unknown, url: string): CairnError {
  const cause = (
    err as { cause?: { code?: string; message?: string; errors?: { code?: string }[] } }
  )?.cause;
  const code =
    cause?.code ??
    cause?.errors?.find((e) => e.code)?.code ??
    (err as { code?: string })?.code ??
    cause?.message ??
    'network error';
  return new CairnError(
    ErrorCode.UpstreamUnavailable,
    `Cannot reach the upstream provider at ${displayUrl(url) ?? 'its configured URL'} (${code}). Is it running?`,
    { cause: err },
  );
}

export function createUpstreamClient(options: UpstreamClientOptions): UpstreamClient {
  const log = options.logger.child('upstream');
  const config = options.config ?? {};
  const timeout = config.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  const configTarget: UpstreamTarget | null = config.upstreamUrl
    ? {
        baseUrl: trimSlash(config.upstreamUrl),
        apiKey: config.upstreamApiKey ?? null,
        source: 'config',
      }
    : null;

  // Resolved per call (providers change at runtime) but cached per settings object, which
  // the settings service replaces on every update: no work on the hot path.
  let cachedFor: unknown = null;
  let cachedTarget: UpstreamTarget | null = null;
  const target = (): UpstreamTarget | null => {
    if (configTarget) return configTarget;
    if (config.useSettingsProviders === false) return null;
    const s = options.settings.get();
    if (s !== cachedFor) {
      const provider =
        (s.activeProviderId !== null
          ? s.providers.find((p) => p.id === s.activeProviderId)
          : undefined) ?? s.providers[0];
      cachedTarget = provider
        ? {
            baseUrl: trimSlash(provider.baseUrl),
            apiKey: provider.apiKey ?? null,
            source: 'provider',
          }
        : null;
      cachedFor = s;
    }
    return cachedTarget;
  };

  const agents = {
    http: new HttpAgent({ keepAlive: true, maxSockets: 256 }),
    https: new HttpsAgent({ keepAlive: true, maxSockets: 256 }),
  };

  const forward = (request: ForwardRequest): Promise<UpstreamResponse> => {
    const t = target();
    if (!t) {
      return Promise.reject(
        new CairnError(
          ErrorCode.NoUpstream,
          'No upstream model provider is configured. Add one in Settings (providers), or start with --upstream <url> / CAIRN_UPSTREAM_URL.',
        ),
      );
    }
    let url: URL;
    try {
      // The path goes below the base URL's path; a query of the base URL (`?api-version=`,
      // `?api_key=`) stays the query.
      url = new URL(t.baseUrl);
      url.pathname = url.pathname.replace(/\/+$/, '') + request.path;
    } catch (err) {
      return Promise.reject(networkError(err, t.baseUrl));
    }
    const secure = url.protocol === 'https:';
    const headers: Record<string, string | number> = {
      accept: 'application/json, text/event-stream',
      ...request.headers,
    };
    let body: Buffer | undefined;
    if (request.body !== undefined) {
      body = Buffer.from(request.body, 'utf8');
      headers['content-type'] = 'application/json';
      headers['content-length'] = body.length;
    }
    if (t.apiKey) {
      if (config.apiKeyHeader === 'x-api-key') headers['x-api-key'] = t.apiKey;
      else headers.authorization = `Bearer ${t.apiKey}`;
    }

    return new Promise<UpstreamResponse>((resolve, reject) => {
      let settled = false;
      const fail = (err: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        request.signal?.removeEventListener('abort', onAbort);
        reject(err);
      };
      const req = (secure ? httpsRequest : httpRequest)(
        {
          protocol: url.protocol,
          hostname: url.hostname.replace(/^\[|\]$/g, ''),
          port: url.port || (secure ? 443 : 80),
          path: url.pathname + url.search,
          method: request.method,
          headers,
          agent: secure ? agents.https : agents.http,
          auth:
            url.username || url.password
              ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`
              : undefined,
        },
        (res) => {
          if (settled) {
            res.destroy();
            return;
          }
          settled = true;
          clearTimeout(timer);
          const status = res.statusCode ?? 502;
          const contentType = (res.headers['content-type'] as string | undefined) ?? null;
          // Aborting after the headers (client gone) still tears the body down.
          const onBodyAbort = () => res.destroy();
          request.signal?.removeEventListener('abort', onAbort);
          request.signal?.addEventListener('abort', onBodyAbort, { once: true });
          res.once('close', () => request.signal?.removeEventListener('abort', onBodyAbort));
          const answer: UpstreamResponse = {
            status,
            contentType,
            headers: res.headers,
            body: res,
            text: () => readBody(res, timeout),
          };
          if ((status >= 200 && status < 300) || request.anyStatus) {
            resolve(answer);
            return;
          }
          log.warn('upstream answered with an error', { status, path: request.path });
          upstreamHttpError(answer).then(reject, reject);
        },
      );
      // The timer covers the wait for the answer's headers only; the body (a stream may
      // last minutes) is guarded by the caller's inter-chunk timeout.
      const timer = setTimeout(() => {
        req.destroy();
        fail(
          new CairnError(
            ErrorCode.UpstreamTimeout,
            `The upstream provider did not answer within ${Math.round(timeout / 1000)} s.`,
          ),
        );
      }, timeout);
      const onAbort = () => {
        req.destroy();
        fail(Object.assign(new Error('The request was aborted.'), { name: 'AbortError' }));
      };
      if (request.signal?.aborted) {
        onAbort();
        return;
      }
      request.signal?.addEventListener('abort', onAbort, { once: true });
      req.on('error', (err) => fail(networkError(err, t.baseUrl)));
      req.end(body);
    });
  };

  const complete = async (opts: CompletionOptions): Promise<CompletionResult> => {
    const body: Record<string, unknown> = {
      model: opts.model,
      messages: opts.messages,
      stream: false,
    };
    if (opts.temperature !== undefined) body.temperature = opts.temperature;
    if (opts.maxTokens !== undefined) body.max_tokens = opts.maxTokens;
    const signals: AbortSignal[] = [];
    if (opts.signal) signals.push(opts.signal);
    if (opts.timeoutMs !== undefined) signals.push(AbortSignal.timeout(opts.timeoutMs));
    const signal = signals.length ? AbortSignal.any(signals) : undefined;

    const send = async (json: boolean): Promise<UpstreamResponse> => {
      const payload = json ? { ...body, response_format: { type: 'json_object' } } : body;
      try {
        return await forward({
          method: 'POST',
          path: '/chat/completions',
          body: JSON.stringify(payload),
          signal,
        });
      } catch (err) {
        if (!isCairnError(err) && signal?.aborted && !opts.signal?.aborted) {
          throw new CairnError(
            ErrorCode.UpstreamTimeout,
            `The Core Model did not answer within ${opts.timeoutMs} ms.`,
            { cause: err },
          );
        }
        throw err;
      }
    };

    let res: UpstreamResponse;
    try {
      res = await send(opts.json === true);
    } catch (err) {
      // Providers without structured output reject response_format with a 400: ask again
      // without it (the caller parses leniently).
      if (opts.json && isCairnError(err) && err.status === 400) {
        log.info('provider rejected response_format; retrying without it');
        res = await send(false);
      } else {
        throw err;
      }
    }
    let json: {
      model?: string;
      choices?: { message?: { content?: string | null } }[];
      usage?: { total_tokens?: number };
    };
    try {
      json = JSON.parse(await res.text()) as typeof json;
    } catch (err) {
      if (signal?.aborted && !opts.signal?.aborted) {
        throw new CairnError(
          ErrorCode.UpstreamTimeout,
          `The Core Model did not finish its answer within ${opts.timeoutMs} ms.`,
          { cause: err },
        );
      }
      throw new CairnError(ErrorCode.UpstreamError, 'The upstream provider sent invalid JSON.', {
        status: 502,
        cause: err,
      });
    }
    const content = json.choices?.[0]?.message?.content;
    if (typeof content !== 'string') {
      throw new CairnError(
        ErrorCode.UpstreamError,
        'The upstream provider sent no message content.',
        {
          status: 502,
        },
      );
    }
    return {
      content,
      model: typeof json.model === 'string' ? json.model : opts.model,
      tokens: typeof json.usage?.total_tokens === 'number' ? json.usage.total_tokens : null,
    };
  };

  return {
    baseUrl: () => target()?.baseUrl ?? null,
    target,
    timeoutMs: () => timeout,
    forward,
    complete,
    close: () => {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
