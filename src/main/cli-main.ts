// Headless entry: `cairn serve` runs the same engine as the desktop app under plain Node
// (DESIGN §1), configured by flags or environment (DESIGN §9).
import { writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import packageJson from '../../package.json' with { type: 'json' };
import { type Engine, createEngine } from './engine/engine.ts';
import { CairnError, isCairnError } from './engine/errors.ts';
import { createLogger, type LogLevel } from './engine/logger.ts';
import { getRecoveryKey, resolveDatabaseKey, rotateDatabaseKey } from './engine/secrets.ts';
import {
  databaseFileExists,
  databaseOpenElsewhere,
  openDataDirDatabase,
} from './engine/store/database-file.ts';
import { DEFAULT_CAIRN_URL, fetchMemoryExport, readClientOptions } from './cli-client.ts';
import { parseFlags, UsageError } from './cli-flags.ts';
import { runMcpStdio } from './mcp-stdio.ts';
import { ErrorCode } from '../shared/errors.ts';
import { displayUrl, httpUrlProblem, redactUrlsInText } from '../shared/urls.ts';

const USAGE = `Cairn ${packageJson.version}: local, encrypted long-term memory for AI agents.

Usage:
  cairn serve [options]      run the memory proxy (OpenAI-compatible) in the foreground
  cairn recovery-key [opts]  print the recovery key of the database in the data folder
  cairn token [opts]         print the access token of the database in the data folder
  cairn mcp [client opts]    MCP server on stdin/stdout (Claude Desktop) for the running Cairn
  cairn export [client opts] write agents' memory as Cairn's JSON export (stdout or --out)
  cairn rekey [opts]         re-encrypt the database with a new key (Cairn must be stopped)
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
  --ollama-upstream <url>  Ollama's native API for /api/* (else translated to --upstream)
                                                                            env CAIRN_OLLAMA_URL
  --core-model <m>    what distils conversations into memory (overrides     env CAIRN_CORE_MODEL
                      the Settings page while running):
                      auto (default): the model you chat with, if the upstream is on this
                        machine (free); the built-in extraction for a remote upstream
                      off: the built-in extraction only, never a model call
                      <model>: this upstream model, for every conversation (a remote
                        upstream costs one extra request per conversation)
  --log-level <lvl>   debug | info | warn | error | silent (default info)   env CAIRN_LOG_LEVEL
  --allow-host <name> with a non-loopback --host: a Host name clients may use (repeatable)
  --no-keychain       never use the OS keychain (key file in the data folder)
  -h, --help          show this help

Client options (mcp, export: they talk to the running Cairn over HTTP):
  --url <url>         where Cairn listens (default ${DEFAULT_CAIRN_URL})   env CAIRN_URL
  --token <token>     its access token (\`cairn token\` prints it)            env CAIRN_TOKEN
  --agent <id>        mcp: scope every tool to this agent; export: only this agent (repeatable)
  -o, --out <file>    export: write here instead of stdout

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
  ollamaUpstreamUrl?: string;
  coreModel?: string;
  logLevel: LogLevel;
  useKeychain: boolean;
  allowedHosts: string[];
}

function readOptions(argv: string[], env: NodeJS.ProcessEnv): ServeOptions {
  const values = parseFlags(argv, {
    port: { type: 'string' },
    host: { type: 'string' },
    'data-dir': { type: 'string' },
    upstream: { type: 'string' },
    'anthropic-upstream': { type: 'string' },
    'upstream-responses': { type: 'boolean' },
    'ollama-upstream': { type: 'string' },
    'core-model': { type: 'string' },
    'log-level': { type: 'string' },
    'no-keychain': { type: 'boolean' },
    'allow-host': { type: 'string', multiple: true },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) throw new HelpRequested();
  const logLevel = (values['log-level'] ?? env.CAIRN_LOG_LEVEL ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}.`);
  }
  const upstream = values.upstream ?? (env.CAIRN_UPSTREAM_URL?.trim() || undefined);
  const anthropic = values['anthropic-upstream'] ?? (env.CAIRN_ANTHROPIC_URL?.trim() || undefined);
  const ollama = values['ollama-upstream'] ?? (env.CAIRN_OLLAMA_URL?.trim() || undefined);
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
    ollamaUpstreamUrl:
      ollama === undefined
        ? undefined
        : parseUrl(ollama, values['ollama-upstream'] ? '--ollama-upstream' : 'CAIRN_OLLAMA_URL'),
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
    ollamaUpstreamUrl: options.ollamaUpstreamUrl,
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

/**
 * `cairn rekey`: re-encrypts the database with a new key, kept where the old one was (keychain
 * or key file), and prints the new recovery key. Refused while another process (the app or
 * `cairn serve`) has the database open: its connection would keep the old key.
 */
async function rekey(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const options = readOptions(argv, env);
  if (!databaseFileExists(options.dataDir)) {
    throw new CairnError(ErrorCode.NotFound, `There is no Cairn database in ${options.dataDir}.`);
  }
  const logger = createLogger({ level: options.logLevel === 'info' ? 'warn' : options.logLevel });
  const keyOptions = {
    dataDir: options.dataDir,
    env,
    useKeychain: options.useKeychain,
    logger: logger.child('secrets'),
  };
  const resolved = await resolveDatabaseKey(keyOptions);
  let opened: ReturnType<typeof openDataDirDatabase>;
  try {
    opened = openDataDirDatabase({ dataDir: options.dataDir, key: resolved.key, logger });
  } finally {
    resolved.key.fill(0);
  }
  const { db } = opened;
  try {
    if (databaseOpenElsewhere(db)) {
      throw new CairnError(
        ErrorCode.Conflict,
        `Cairn is running with ${options.dataDir} (the database is open in another process). ` +
          'Quit the app or stop `cairn serve`, then run `cairn rekey` again.',
      );
    }
    const rotated = await rotateDatabaseKey({ ...keyOptions, db });
    rotated.key.fill(0);
    const out = (line = '') => process.stdout.write(line + '\n');
    out(`The database is re-encrypted with a new key (kept in the ${rotated.source}).`);
    out('Write down the NEW RECOVERY KEY; the old one no longer opens it:');
    out(`    ${rotated.recoveryKey}`);
  } finally {
    db.close();
  }
  return 0;
}

/** `cairn mcp`: the stdio MCP server; runs until the client closes stdin. */
async function mcp(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const options = readClientOptions(argv, env);
  if (options.agents.length > 1) throw new UsageError('cairn mcp takes one --agent at most.');
  const log = (line: string) => process.stderr.write(line + '\n');
  const server = await runMcpStdio({
    url: options.url,
    token: options.token,
    agentId: options.agents[0],
    log,
  });
  return new Promise<number>((resolve) => {
    const stop = () => void server.close().finally(() => resolve(0));
    process.stdin.once('end', stop);
    process.stdin.once('close', stop);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

/** `cairn export`: Cairn's JSON export of the chosen agents (all by default). */
async function exportCommand(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const options = readClientOptions(argv, env);
  // The running Cairn builds the export (GET /memory/export): one request, one consistent read.
  const { text, agents } = await fetchMemoryExport(options.url, options.token, options.agents);
  if (options.out === null) process.stdout.write(text + '\n');
  else {
    // The export holds memory content: readable by its owner alone.
    writeFileSync(options.out, text + '\n', { mode: 0o600 });
    process.stderr.write(`Wrote ${agents} agent(s) to ${options.out}\n`);
  }
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
      case 'rekey':
        return await rekey(rest, env);
      case 'mcp':
        return await mcp(rest, env);
      case 'export':
        return await exportCommand(rest, env);
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
