// Cairn's logger: pino (fastify's own logger) under the small `Logger` interface the services
// use, so call sites stay `log.info(msg, fields)` and fastify writes through the same instance.
//
// What reaches a line, and why (see also the engine README, "Logging"):
// - secrets are cut BY PATH with pino's `redact`: the fields Cairn holds keys and tokens in
//   (`SECRET_FIELDS`), at every depth a line can have, censored as '[redacted]'. A count such as
//   `tokens: 812` or `blockTokens` is not on the list and is written;
// - user text (`CONTENT_FIELDS`: message text, memory content, queries) is left out of the
//   line unless the logger runs at debug level;
// - URLs anywhere in the message or a string field lose credentials and query
//   (`http://u:p@host/v1?api_key=…` → `http://host/v1`), relative request paths lose their query;
// - errors are written as name, message, stack and code (never their other properties, which
//   may hold a request's headers); bytes (a key is a Buffer) never; nesting stops at a depth.

import pino, {
  type DestinationStream,
  type Logger as PinoLogger,
  type LoggerOptions as PinoOptions,
} from 'pino';
import { redactUrlsInText } from '../../shared/urls.ts';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  child(subsystem: string): Logger;
  readonly level: LogLevel;
  /** The pino logger underneath (this subsystem's child): fastify's `loggerInstance`. */
  readonly pino: PinoLogger;
}

/**
 * The fields Cairn keeps secrets in: provider keys (`apiKey` in settings and upstream config,
 * `upstreamApiKey`, `anthropicApiKey` in the engine config), the access token (`token`,
 * `generatedToken`), the database key (`key`, `newKey`, `dbKey`, `recoveryKey`), and the
 * headers that carry one (`authorization`, `Authorization`, `x-api-key`, `cookie`). Exact
 * names, not a pattern: `tokens`, `keySource` and `blockTokens` are not secrets.
 */
export const SECRET_FIELDS = [
  'apiKey',
  'upstreamApiKey',
  'anthropicApiKey',
  'token',
  'generatedToken',
  'key',
  'newKey',
  'dbKey',
  'recoveryKey',
  'authorization',
  'Authorization',
  'x-api-key',
  'cookie',
] as const;

/** Fields that carry user text: written only when the logger runs at debug level. */
export const CONTENT_FIELDS = [
  'content',
  'text',
  'message',
  'messages',
  'query',
  'summary',
  'prompt',
  'body',
  'block',
  'fact',
  'facts',
] as const;
const contentFields = new Set<string>(CONTENT_FIELDS);

/**
 * Objects nested deeper than this are written as '[nested]': a log line is not a dump, and
 * each level costs a pass of every secret path (pino's redact runs each path on its own, about
 * 9 µs a line per level on a 2-core machine).
 */
export const MAX_FIELD_DEPTH = 3;

/**
 * pino `redact` paths for every secret field at every depth a line can have: a wildcard
 * stands for one level (an object key or an array index), and nothing deeper than
 * `MAX_FIELD_DEPTH` is written, so these paths reach every field that is.
 */
export function secretPaths(): string[] {
  const paths: string[] = [];
  for (let depth = 0; depth <= MAX_FIELD_DEPTH; depth++) {
    const prefix = '*.'.repeat(depth);
    for (const name of SECRET_FIELDS) {
      paths.push(/^[A-Za-z_$][\w$]*$/.test(name) ? `${prefix}${name}` : `${prefix}["${name}"]`);
    }
  }
  return paths;
}

/** A request path's query (`/v1/models?api_key=…`): after a slash-led word, up to a blank. */
const PATH_QUERY = /(\/[^\s?#"'<>`]*)\?[^\s"'<>`]+/g;

/** Free text as written: URLs without credentials or query, request paths without query. */
export function redactText(text: string): string {
  const noUrls = redactUrlsInText(text);
  return noUrls.includes('?') ? noUrls.replace(PATH_QUERY, '$1') : noUrls;
}

interface ErrorSummary {
  name: string;
  message: string;
  stack?: string;
  code?: string | number;
}

/** An error as written: its own properties beyond these may hold a request or headers. */
function errorSummary(err: Error): ErrorSummary {
  const code = (err as { code?: unknown }).code;
  return {
    name: err.name,
    message: redactText(err.message),
    stack: err.stack === undefined ? undefined : redactText(err.stack),
    code: typeof code === 'string' || typeof code === 'number' ? code : undefined,
  };
}

function cleanValue(value: unknown, keepContent: boolean, depth: number): unknown {
  if (typeof value === 'string') return redactText(value);
  if (typeof value !== 'object' || value === null) return value;
  if (value instanceof Error) return errorSummary(value);
  // A key is a Buffer: whatever its field is called, raw bytes are not written.
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return '[bytes]';
  if (value instanceof Date) return value.toISOString();
  if (depth >= MAX_FIELD_DEPTH) return '[nested]';
  if (Array.isArray(value)) return value.map((v) => cleanValue(v, keepContent, depth + 1));
  return cleanFields(value as LogFields, keepContent, depth + 1);
}

function cleanFields(fields: LogFields, keepContent: boolean, depth: number): LogFields {
  const out: LogFields = {};
  for (const [k, v] of Object.entries(fields)) {
    if (!keepContent && contentFields.has(k.toLowerCase())) continue;
    out[k] = cleanValue(v, keepContent, depth);
  }
  return out;
}

/** Fields pino's serializers turn into a summary themselves (fastify logs them). */
const SERIALIZED_FIELDS = new Set(['req', 'res']);

/**
 * The fields of a line before pino's path redaction runs (pino's `formatters.log`): text and
 * URLs cleaned, errors summarised, bytes and depth bounded, user text dropped unless at debug.
 */
export function cleanLogFields(fields: LogFields, keepContent: boolean): LogFields {
  const out: LogFields = {};
  for (const [k, v] of Object.entries(fields)) {
    if (SERIALIZED_FIELDS.has(k)) out[k] = v;
    else if (!keepContent && contentFields.has(k.toLowerCase())) continue;
    else out[k] = cleanValue(v, keepContent, 0);
  }
  return out;
}

/** fastify's request, as written: method and path, never the query, headers or body. */
function requestSummary(req: { method?: string; url?: string }): LogFields {
  return { method: req.method, url: req.url?.split('?')[0] };
}

/** fastify's reply (or a Node response), as written: its status only. */
function replySummary(res: { statusCode?: number }): LogFields {
  return { statusCode: res.statusCode };
}

/**
 * Before a call reaches pino (Cairn's or fastify's own): every text argument is cleaned of
 * URLs. A line given an error and no message takes the error's message, cleaned here, since
 * pino would otherwise copy it raw (`log.error(err)`, fastify's `log.warn({ err })`).
 */
function cleanLogArguments(args: unknown[]): unknown[] {
  const [first, ...rest] = args;
  const fields = first instanceof Error ? { err: first } : first;
  const err = (fields as { err?: unknown } | null | undefined)?.err;
  const out = fields === first ? args : [fields, ...rest];
  if (out.length === 1 && err instanceof Error) out.push(err.message);
  return out.map((a) => (typeof a === 'string' ? redactText(a) : a));
}

function pinoOptions(level: LogLevel): PinoOptions {
  const keepContent = level === 'debug';
  return {
    level,
    // The line format readers and tests know: {"level":"warn","t":ISO,"sub":…,"msg":…}.
    base: null,
    messageKey: 'msg',
    timestamp: () => `,"t":"${new Date().toISOString()}"`,
    formatters: {
      level: (label) => ({ level: label }),
      log: (fields) => cleanLogFields(fields, keepContent),
    },
    serializers: {
      // Already summarised by `cleanLogFields`; pino's default would copy every property.
      err: (err: unknown) => (err instanceof Error ? errorSummary(err) : err),
      req: requestSummary,
      res: replySummary,
    },
    redact: { paths: secretPaths(), censor: '[redacted]' },
    hooks: {
      logMethod(args, method) {
        method.apply(this, cleanLogArguments(args) as Parameters<typeof method>);
      },
    },
  };
}

export interface LoggerOptions {
  level?: LogLevel;
  /** Where lines go, one call per line without its newline. Tests pass a collector. */
  sink?: (line: string) => void;
  /** Where lines go as a pino destination; stderr (synchronous) when neither is given. */
  destination?: DestinationStream;
  subsystem?: string;
}

function destinationOf(options: LoggerOptions): DestinationStream {
  if (options.destination) return options.destination;
  const sink = options.sink;
  if (sink) return { write: (chunk: string) => sink(chunk.replace(/\n$/, '')) };
  // Synchronous: a line is on stderr before the process can exit on the next statement.
  return pino.destination({ fd: 2, sync: true });
}

function wrap(root: PinoLogger, level: LogLevel, subsystem: string): Logger {
  const log = root.child({ sub: subsystem });
  return {
    level,
    pino: log,
    debug: (msg, fields) => log.debug(fields ?? {}, msg),
    info: (msg, fields) => log.info(fields ?? {}, msg),
    warn: (msg, fields) => log.warn(fields ?? {}, msg),
    error: (msg, fields) => log.error(fields ?? {}, msg),
    // From the root, not from `log`: pino would write a second `sub` beside the first.
    child: (name) => wrap(root, level, `${subsystem}.${name}`),
  };
}

/** One pino instance per call (an engine, a CLI command): no logger is shared by modules. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? 'info';
  const root = pino(pinoOptions(level), destinationOf(options));
  return wrap(root, level, options.subsystem ?? 'cairn');
}

export const silentLogger: Logger = createLogger({ level: 'silent', sink: () => {} });
