// Headless entry: `cairn serve` runs the same engine as the desktop app under plain Node
// (DESIGN §1), configured by flags or environment (DESIGN §9).
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import packageJson from '../../package.json' with { type: 'json' };
import { type Engine, createEngine } from './engine/engine.ts';
import { CairnError, isCairnError } from './engine/errors.ts';
import { createLogger, type LogLevel } from './engine/logger.ts';
import { getRecoveryKey } from './engine/secrets.ts';
import { databaseFileExists } from './engine/store/database-file.ts';
import { ErrorCode } from '../shared/errors.ts';
import { displayUrl, httpUrlProblem, redactUrlsInText } from '../shared/urls.ts';

const USAGE = `Cairn ${packageJson.version}: local, encrypted long-term memory for AI agents.

Usage:
  cairn serve [options]      run the memory proxy (OpenAI-compatible) in the foreground
  cairn recovery-key [opts]  print the recovery key of the database in the data folder
  cairn token [opts]         print the access token of the database in the data folder
  cairn help                 show this help

Options (serve):
  --port <n>          port to listen on (default: the Settings port, 1337;  env CAIRN_PORT
                      0 = any free port)
  --host <addr>       address to bind (default 127.0.0.1: loopback only)    env CAIRN_HOST
  --data-dir <path>   data folder                                           env CAIRN_DATA_DIR
                      (default: ${defaultDataDir()})
  --upstream <url>    OpenAI-compatible provider, e.g. http://127.0.0.1:11434/v1
                                                                            env CAIRN_UPSTREAM_URL
  --anthropic-upstream <url>  Anthropic API for /v1/messages, e.g. https://api.anthropic.com
                      (else translated to --upstream)                       env CAIRN_ANTHROPIC_URL
  --upstream-responses  --upstream serves /v1/responses: pass Responses requests through
                      (else translated to chat completions)    env CAIRN_UPSTREAM_RESPONSES=1
  --core-model <id>   model used to distil memories (default: heuristic)    env CAIRN_CORE_MODEL
  --log-level <lvl>   debug | info | warn | error | silent (default info)   env CAIRN_LOG_LEVEL
  --allow-host <name> with a non-loopback --host: a Host name clients may use (repeatable)
  --no-keychain       never use the OS keychain (key file in the data folder)
  -h, --help          show this help

Environment only:
  CAIRN_UPSTREAM_API_KEY   API key of the upstream provider
  CAIRN_ANTHROPIC_API_KEY  API key of the Anthropic upstream
  CAIRN_TOKEN              fix the access token clients send as their API key
  CAIRN_DB_KEY             the database key (64 hex characters) when there is no keychain
  CAIRN_RECOVERY_KEY       open the database with its recovery key
  CAIRN_EMBEDDING_BACKEND  transformers | none (none: full-text search only)
  CAIRN_MODEL_DIR          folder with pre-installed embedding models
`;

/** The per-user data folder of each OS. */
export function defaultDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): string {
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Cairn');
  if (platform === 'win32') {
    return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Cairn');
  }
  return join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'cairn');
}

class UsageError extends Error {}

const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error', 'silent'];

function parsePort(text: string, from: string): number {
  if (!/^\d+$/.test(text) || Number(text) > 65535) {
    throw new UsageError(`${from} must be a port number between 0 and 65535 (got "${text}").`);
  }
  return Number(text);
}

/** The provider URL, checked as Settings checks one; the refusal never repeats the URL. */
function parseUrl(text: string, from: string): string {
  const problem = httpUrlProblem(text);
  if (problem !== null) throw new UsageError(`${from} ${problem}.`);
  return text;
}

interface ServeOptions {
  /** Undefined: the port saved in Settings (1337 unless changed there). */
  port: number | undefined;
  host: string;
  dataDir: string;
  upstreamUrl?: string;
  anthropicUpstreamUrl?: string;
  upstreamResponses: boolean;
  coreModel?: string;
  logLevel: LogLevel;
  useKeychain: boolean;
  allowedHosts: string[];
}

function readOptions(argv: string[], env: NodeJS.ProcessEnv): ServeOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'data-dir': { type: 'string' },
        upstream: { type: 'string' },
        'anthropic-upstream': { type: 'string' },
        'upstream-responses': { type: 'boolean' },
        'core-model': { type: 'string' },
        'log-level': { type: 'string' },
        'no-keychain': { type: 'boolean' },
        'allow-host': { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (values.help) throw new HelpRequested();
  const logLevel = (values['log-level'] ?? env.CAIRN_LOG_LEVEL ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}.`);
  }
  const upstream = values.upstream ?? (env.CAIRN_UPSTREAM_URL?.trim() || undefined);
  const anthropic = values['anthropic-upstream'] ?? (env.CAIRN_ANTHROPIC_URL?.trim() || undefined);
  return {
    port:
      values.port !== undefined
        ? parsePort(values.port, '--port')
        : env.CAIRN_PORT
          ? parsePort(env.CAIRN_PORT, 'CAIRN_PORT')
          : undefined,
    host: values.host ?? (env.CAIRN_HOST?.trim() || '127.0.0.1'),
    dataDir: values['data-dir'] ?? (env.CAIRN_DATA_DIR?.trim() || defaultDataDir()),
    upstreamUrl:
      upstream === undefined
        ? undefined
        : parseUrl(upstream, values.upstream ? '--upstream' : 'CAIRN_UPSTREAM_URL'),
    anthropicUpstreamUrl:
      anthropic === undefined
        ? undefined
        : parseUrl(
            anthropic,
            values['anthropic-upstream'] ? '--anthropic-upstream' : 'CAIRN_ANTHROPIC_URL',
          ),
    upstreamResponses:
      values['upstream-responses'] === true || env.CAIRN_UPSTREAM_RESPONSES?.trim() === '1',
    coreModel: values['core-model'] ?? (env.CAIRN_CORE_MODEL?.trim() || undefined),
    logLevel,
    useKeychain: !values['no-keychain'],
    allowedHosts: values['allow-host'] ?? [],
  };
}

class HelpRequested extends Error {}

function embeddingBackend(env: NodeJS.ProcessEnv): 'transformers' | 'none' | undefined {
  const v = env.CAIRN_EMBEDDING_BACKEND?.trim();
  if (!v) return undefined;
  if (v !== 'transformers' && v !== 'none') {
    throw new UsageError('CAIRN_EMBEDDING_BACKEND must be "transformers" or "none".');
  }
  return v;
}

async function serve(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const options = readOptions(argv, env);
  const logger = createLogger({ level: options.logLevel });
  const backend = embeddingBackend(env);
  const modelDir = env.CAIRN_MODEL_DIR?.trim() || undefined;

  const config = {
    dataDir: options.dataDir,
    host: options.host,
    upstreamUrl: options.upstreamUrl,
    upstreamApiKey: env.CAIRN_UPSTREAM_API_KEY?.trim() || undefined,
    anthropicUpstreamUrl: options.anthropicUpstreamUrl,
    anthropicApiKey: env.CAIRN_ANTHROPIC_API_KEY?.trim() || undefined,
    upstreamResponses: options.upstreamResponses,
    coreModel: options.coreModel,
    useKeychain: options.useKeychain,
    allowedHosts: options.allowedHosts,
    env,
    logger,
    embedder: {
      backend,
      localModelPath: modelDir,
    },
  };
  let engine: Engine = await createEngine({ ...config, port: options.port });
  // What this start created is printed once, even when the engine is opened a second time.
  const created: CreatedSecrets = {
    token: engine.generatedToken,
    recoveryKey: engine.recoveryKey,
  };
  // The port setting lives in the database (Settings → Port, "takes effect after a restart"):
  // honour it unless --port or CAIRN_PORT fixed one, as the desktop app does.
  const saved = engine.services.settings.get().port;
  if (options.port === undefined && saved !== 1337) {
    await engine.stop();
    engine = await createEngine({ ...config, port: saved });
  }
  let url: string;
  try {
    ({ url } = await engine.start());
  } catch (err) {
    await engine.stop().catch(() => {});
    throw err;
  }
  return new Promise<number>((resolve) => {
    let stopping = false;
    const shutdown = (signal: string) => {
      if (stopping) {
        process.stderr.write(`Second ${signal}: exiting without a clean shutdown.\n`);
        process.exit(1);
      }
      stopping = true;
      logger.info('shutting down', { signal });
      engine.stop().then(
        () => resolve(0),
        (err: unknown) => {
          logger.error('shutdown failed', { err });
          resolve(1);
        },
      );
    };
    process.on('SIGINT', () => shutdown('SIGINT'));
    process.on('SIGTERM', () => shutdown('SIGTERM'));
    // Printed once the handlers are in place: whoever reads these lines may stop Cairn at
    // once, and it then shuts down cleanly.
    printStartup(engine, url, created, env.CAIRN_TOKEN?.trim() ? 'env' : 'stored');
  });
}

/** Secrets generated by this start: shown once, then never again. */
interface CreatedSecrets {
  token: string | null;
  recoveryKey: string | null;
}

/**
 * What `cairn serve` prints once it listens. Secrets appear only when this start created
 * them (the access token and the recovery key, once); the upstream URL is shown without its
 * credentials and query.
 */
function printStartup(
  engine: Engine,
  url: string,
  created: CreatedSecrets,
  tokenFrom: 'env' | 'stored',
): void {
  const s = engine.services;
  const out = (line = '') => process.stdout.write(line + '\n');
  out(`Cairn ${s.version} listening on ${url}`);
  out(`  OpenAI base URL : ${url}/v1   (send X-Osaurus-Agent-Id: <agent> for memory)`);
  out(`  data folder     : ${s.dataDir}`);
  out(`  database key    : ${s.keySource} (encrypted with SQLCipher)`);
  out(
    `  upstream        : ${displayUrl(s.upstream.baseUrl()) ?? 'none configured (set --upstream or add a provider in Settings)'}`,
  );
  if (created.token) {
    out(`  access token    : ${created.token}`);
    out(`                    (clients send it as their API key: Authorization: Bearer <token>)`);
    out('                    It is shown only now (later: `cairn token`, or the desktop app).');
  } else if (tokenFrom === 'env') {
    out('  access token    : the one in CAIRN_TOKEN');
  } else {
    out('  access token    : kept in the database (`cairn token` prints it)');
  }
  if (engine.quarantined) {
    out();
    out(
      `  An unreadable database was moved to ${engine.quarantined}; Cairn started with an empty one.`,
    );
  }
  if (created.recoveryKey) {
    out();
    out('  A new database key was created. Write down this RECOVERY KEY and keep it safe:');
    out(`      ${created.recoveryKey}`);
    out('  It opens your memories if the keychain entry or key file is ever lost.');
    out('  It is shown only now (later: `cairn recovery-key`).');
  }
}

/**
 * `cairn token`: the access token clients send, read from the database of the data folder
 * (or CAIRN_TOKEN when set, as `serve` would use it). It never creates a database.
 */
async function printToken(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const options = readOptions(argv, env);
  if (!databaseFileExists(options.dataDir)) {
    throw new CairnError(
      ErrorCode.NotFound,
      `There is no Cairn database in ${options.dataDir}: \`cairn serve\` creates one and prints its token.`,
    );
  }
  const engine = await createEngine({
    dataDir: options.dataDir,
    env,
    useKeychain: options.useKeychain,
    logger: createLogger({ level: options.logLevel === 'info' ? 'warn' : options.logLevel }),
    embedder: { backend: 'none' },
    writerWorker: false,
  });
  try {
    process.stdout.write(engine.services.token + '\n');
  } finally {
    await engine.stop();
  }
  return 0;
}

async function printRecoveryKey(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const options = readOptions(argv, env);
  const key = await getRecoveryKey({
    dataDir: options.dataDir,
    env,
    useKeychain: options.useKeychain,
    logger: createLogger({ level: options.logLevel === 'info' ? 'warn' : options.logLevel }),
  });
  process.stdout.write(key + '\n');
  return 0;
}

export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'serve':
        return await serve(rest, env);
      case 'recovery-key':
        return await printRecoveryKey(rest, env);
      case 'token':
        return await printToken(rest, env);
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        process.stdout.write(USAGE);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`Unknown command "${command}".`);
    }
  } catch (err) {
    if (err instanceof HelpRequested) {
      process.stdout.write(USAGE);
      return 0;
    }
    if (err instanceof UsageError) {
      process.stderr.write(`cairn: ${err.message}\nRun "cairn help" for the options.\n`);
      return 2;
    }
    // A message or stack may quote a provider URL: never with its credentials or query.
    if (isCairnError(err)) {
      process.stderr.write(`cairn: ${redactUrlsInText(err.message)}\n`);
      return 1;
    }
    const detail = (err as Error).stack ?? String(err);
    process.stderr.write(`cairn: unexpected error: ${redactUrlsInText(detail)}\n`);
    return 1;
  }
}

if (import.meta.main) {
  void main(process.argv.slice(2)).then((code) => {
    // Let stdout drain and handles close; exit anyway if something still holds the loop.
    process.exitCode = code;
    setTimeout(() => process.exit(code), 2000).unref();
  });
}
