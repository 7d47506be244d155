// One small logging wrapper: levels, child loggers per subsystem, and a redaction hook so
// message text, memory content, keys and tokens never reach the log at the default level.

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

export function redact(fields: LogFields | undefined, level: LogLevel): LogFields | undefined {
  if (!fields) return undefined;
  const out: LogFields = {};
  for (const [k, v] of Object.entries(fields)) {
    if (SECRET_KEYS.test(k) && k !== 'keySource') out[k] = '[redacted]';
    else if (CONTENT_KEYS.test(k) && level !== 'debug') out[k] = '[redacted]';
    else if (v instanceof Error) out[k] = { name: v.name, message: v.message, stack: v.stack };
    else out[k] = v;
  }
  return out;
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
      msg,
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
