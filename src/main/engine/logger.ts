// One small logging wrapper: levels, child loggers per subsystem, and a redaction hook so
// message text, memory content, keys and tokens never reach the log at the default level.

import { redactUrlsInText } from '../../shared/urls.ts';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  child(subsystem: string): Logger;
  readonly level: LogLevel;
}

/** Field names whose values are never written at all, whatever the level. */
const SECRET_KEYS = /(key|token|secret|password|authorization|api_?key)/i;
/** Field names that carry user text: written only at debug level. */
const CONTENT_KEYS =
  /^(content|text|message|messages|query|summary|prompt|body|block|fact|facts)$/i;
/** Nested fields deeper than this are not written (a log line is not a data dump). */
const MAX_FIELD_DEPTH = 4;

/**
 * A field named like a secret holds one unless its value is a number, a boolean or empty:
 * `tokens: 812` is a count and `keySource: 'env'` says where a key came from, while every
 * key and token Cairn handles is a string or bytes.
 */
function isSecretField(name: string, value: unknown): boolean {
  if (!SECRET_KEYS.test(name) || name === 'keySource') return false;
  return !(
    typeof value === 'number' ||
    typeof value === 'boolean' ||
    value === null ||
    value === undefined
  );
}

/** One field value as written: URLs without credentials or query, bytes never. */
function redactValue(value: unknown, level: LogLevel, depth: number): unknown {
  if (typeof value === 'string') return redactUrlsInText(value);
  if (typeof value !== 'object' || value === null) return value;
  if (value instanceof Error) {
    return {
      name: value.name,
      message: redactUrlsInText(value.message),
      stack: value.stack === undefined ? undefined : redactUrlsInText(value.stack),
    };
  }
  // A key is a Buffer: whatever its field is called, raw bytes are not written.
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return '[bytes]';
  if (depth >= MAX_FIELD_DEPTH) return '[nested]';
  if (Array.isArray(value)) return value.map((v) => redactValue(v, level, depth + 1));
  return redactFields(value as LogFields, level, depth + 1);
}

function redactFields(fields: LogFields, level: LogLevel, depth: number): LogFields {
  const out: LogFields = {};
  for (const [k, v] of Object.entries(fields)) {
    if (isSecretField(k, v)) out[k] = '[redacted]';
    else if (CONTENT_KEYS.test(k) && level !== 'debug') out[k] = '[redacted]';
    else out[k] = redactValue(v, level, depth);
  }
  return out;
}

/**
 * The fields as they may be written: secrets by field name, at any depth and level; user
 * text except at debug level; URLs in any string stripped of credentials and query.
 */
export function redact(fields: LogFields | undefined, level: LogLevel): LogFields | undefined {
  if (!fields) return undefined;
  return redactFields(fields, level, 0);
}

export interface LoggerOptions {
  level?: LogLevel;
  /** Where lines go; defaults to stderr. Tests pass a collector. */
  sink?: (line: string) => void;
  subsystem?: string;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? 'info';
  const sink = options.sink ?? ((line: string) => process.stderr.write(line + '\n'));
  const subsystem = options.subsystem ?? 'cairn';
  const write = (lvl: LogLevel, msg: string, fields?: LogFields): void => {
    if (order[lvl] < order[level]) return;
    const rec = {
      t: new Date().toISOString(),
      level: lvl,
      sub: subsystem,
      msg: redactUrlsInText(msg),
      ...redact(fields, level),
    };
    sink(JSON.stringify(rec));
  };
  return {
    level,
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (name) => createLogger({ level, sink, subsystem: `${subsystem}.${name}` }),
  };
}

export const silentLogger: Logger = createLogger({ level: 'silent' });
