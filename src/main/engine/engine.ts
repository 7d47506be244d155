import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import packageJson from '../../../package.json' with { type: 'json' };
import type { KeySource } from '../../shared/api.ts';
import type { Settings } from '../../shared/settings.ts';
import { type Clock, systemClock } from './clock.ts';
import type { Logger } from './logger.ts';
import { getRecoveryKey, resolveDatabaseKey } from './secrets.ts';
import { createActivity } from './activity.ts';
import { releaseMemory, releaseWhenIdle } from './memory-release.ts';
import { type AppOptions, buildApp, listen } from './server/app.ts';
import { type BackgroundTasks, createBackgroundTasks } from './server/background.ts';
import type { EngineServices, SettingsService } from './services.ts';
import { createSettingsService } from './settings-service.ts';
import { openDataDirDatabase } from './store/database-file.ts';
import { createDbMaintenance, type DbMaintenance } from './store/db-maintenance.ts';
import { dataVersion } from './store/integrity.ts';
import type { Db } from './store/migrate.ts';
import { openDatabase } from './store/open.ts';
import { createBackupService } from './backup-service.ts';
import { createDbHealth } from './db-health.ts';
import { getMeta, setMeta } from './store/meta.ts';
import { groupCommit } from './store/group-commit.ts';
import { createTranscriptWriter, type TranscriptWriter } from './store/transcript-writer.ts';
import { createUpstreamClient } from './upstream/upstream-client.ts';
import { createEmbedder } from './vector/embedder.ts';
import { coreModelFromFlag } from './memory/core-model.ts';
import { createDigestThread } from './memory/digest-thread.ts';
import { createDistiller, type DistillerOptions } from './memory/distiller.ts';
import { createMemoryReader } from './memory/memory-reader.ts';
import { meaningFeatures } from './memory/gate-model.ts';
import { createTranscriptHeadIndex } from './store/transcript-head.ts';
import { createDeletionService } from './memory/deletion.ts';
import { createConsolidator } from './memory/consolidator.ts';
import { createVectorIndex } from './vector/vector-index.ts';
import { createVectorService } from './vector/vector-service.ts';
import { createWordVectorEmbedder } from './vector/word-vector-embedder.ts';
import {
  checkoutWordVectorsPath,
  ensureWordVectorAsset,
  WORD_VECTORS_FILE,
} from './vector/word-vectors-asset.ts';
import { createClosenessScorer, type WordVectors } from './vector/word-vectors.ts';

// createEngine(config) wires every part of the engine (DESIGN §1). It is used by the
// headless CLI, the Electron main process and the tests alike; nothing here imports electron.

export interface EngineEmbedderConfig {
  backend?: 'transformers' | 'none';
  modelId?: string;
  /** Pre-installed models, looked up as <localModelPath>/<modelId>/ (CAIRN_MODEL_DIR). */
  localModelPath?: string;
  /** Download cache (default <dataDir>/models). */
  cacheDir?: string;
  allowRemoteModels?: boolean;
  /** The built word-vector asset (packaged resources); default: the checkout's resources/. */
  wordVectorsFile?: string;
  /** Static word vectors until the sentence model is ready (default true). */
  wordVectors?: boolean;
}

export interface EngineConfig {
  dataDir: string;
  /** Default 127.0.0.1 (loopback only unless the user opts in). */
  host?: string;
  /** Default 1337; 0 picks a free port (tests). */
  port?: number;
  /** Upstream from the CLI/env; wins over the providers in the settings. */
  upstreamUrl?: string;
  upstreamApiKey?: string;
  /** Ollama's native API (CAIRN_OLLAMA_URL): /api/* is passed through to it, not translated. */
  ollamaUpstreamUrl?: string;
  /** Anthropic Messages upstream (CAIRN_ANTHROPIC_URL, e.g. https://api.anthropic.com). */
  anthropicUpstreamUrl?: string;
  anthropicApiKey?: string;
  /** The OpenAI upstream serves /responses (CAIRN_UPSTREAM_RESPONSES=1): pass them through. */
  upstreamResponses?: boolean;
  /** Upstream answer / inter-chunk timeout (default 300 s). */
  upstreamTimeoutMs?: number;
  /**
   * --core-model / CAIRN_CORE_MODEL: a model name, `auto` or `off` (memory/core-model.ts);
   * overrides the setting while running.
   */
  coreModel?: string;
  /** Fixed access token (CAIRN_TOKEN); otherwise the stored one, generated on first run. */
  token?: string;
  /** The raw database key as 64 hex characters (CAIRN_DB_KEY); wins over the keychain. */
  dbKey?: string;
  /** false: never touch the OS keychain (key file, unless dbKey is given). Default true. */
  useKeychain?: boolean;
  logger: Logger;
  clock?: Clock;
  /** Environment read for CAIRN_DB_KEY, CAIRN_RECOVERY_KEY, CAIRN_TOKEN (default process.env). */
  env?: Record<string, string | undefined>;
  embedder?: EngineEmbedderConfig;
  /** Extra browser origins allowed (the desktop renderer's). */
  allowedOrigins?: string[];
  /** Host names accepted besides loopback (only with a non-loopback `host`, on purpose). */
  allowedHosts?: string[];
  /** Built web UI served at `/` (default out/renderer-web of the app). */
  staticUiDir?: string;
  chatBodyLimit?: number;
  ingestBodyLimit?: number;
  /**
   * Write turns from a worker thread with its own connection (default true; falls back to
   * the main thread where the worker file is not available, e.g. inside a bundle).
   */
  writerWorker?: boolean;
  /** Distiller timing (tests shorten the debounce and retry delays). */
  distiller?: Pick<
    DistillerOptions,
    'debounceMsOverride' | 'retryDelayMs' | 'recoverDelayMs' | 'llmTimeoutMs'
  >;
}

export interface Engine {
  services: EngineServices;
  app: FastifyInstance;
  /** Shown once when the database key was generated during this start, else null. */
  recoveryKey: string | null;
  /**
   * The access token when this start generated it (first run), else null: printed once,
   * like the recovery key. A token from CAIRN_TOKEN or loaded from the database is not.
   */
  generatedToken: string | null;
  /** Where an unreadable database was moved at open, else null. */
  quarantined: string | null;
  /** Where turns are written: 'worker' (a worker thread) or 'inline' (fallback). */
  writerMode: 'worker' | 'inline';
  /** Work running after responses (recording, indexing); tests wait on it with drain(). */
  background: BackgroundTasks;
  start(): Promise<{ url: string }>;
  stop(): Promise<void>;
}

const TOKEN_META_KEY = 'access_token';

function generateToken(): string {
  return 'cairn-' + randomBytes(24).toString('base64url');
}

/**
 * The settings as the engine sees them: the CLI's --core-model (a model, `auto` or `off`)
 * wins while running.
 */
function withCoreModelOverride(
  inner: SettingsService,
  coreModel: string | undefined,
): SettingsService {
  const override = coreModelFromFlag(coreModel);
  if (!override) return inner;
  let base: Settings | null = null;
  let view: Settings | null = null;
  const get = (): Settings => {
    const s = inner.get();
    if (s !== base) {
      base = s;
      view = Object.freeze({ ...s, ...override });
    }
    return view!;
  };
  return {
    get,
    update: (patch) => {
      inner.update(patch);
      return get();
    },
    onChange: (listener) =>
      inner.onChange((next, prev) => listener({ ...next, ...override }, { ...prev, ...override })),
  };
}

function defaultStaticUiDir(): string {
  return resolve(fileURLToPath(new URL('../../../out/renderer-web', import.meta.url)));
}

export async function createEngine(config: EngineConfig): Promise<Engine> {
  const logger = config.logger;
  const log = logger.child('engine');
  const clock = config.clock ?? systemClock;
  const env = config.env ?? process.env;
  const dataDir = resolve(config.dataDir);

  const resolved = await resolveDatabaseKey({
    dataDir,
    env,
    dbKeyHex: config.dbKey,
    useKeychain: config.useKeychain ?? true,
    logger: logger.child('secrets'),
  });
  const keySource: KeySource = resolved.source;
  let opened: ReturnType<typeof openDataDirDatabase>;
  try {
    opened = openDataDirDatabase({ dataDir, key: resolved.key, logger: logger.child('store') });
  } catch (err) {
    resolved.key.fill(0);
    throw err;
  }
  const db = opened.db;
  // Word meaning from the first minute: static word vectors (built from the installed
  // package into the models cache when no built asset is found). They start loading now, while
  // the worker threads below start (this thread only waits for those): ~200 ms less until
  // search has word meaning.
  const embedderConfig = config.embedder ?? {};
  const modelsDir = embedderConfig.cacheDir ?? join(dataDir, 'models');
  const wordVectors =
    embedderConfig.wordVectors === false
      ? null
      : createWordVectorEmbedder({
          assetPath: () =>
            ensureWordVectorAsset({
              candidates: [embedderConfig.wordVectorsFile ?? checkoutWordVectorsPath()],
              buildPath: join(modelsDir, 'word-vectors', WORD_VECTORS_FILE),
            }),
          logger,
        });
  void wordVectors?.start();
  // Requests in flight: recording a turn waits until there are none (BackgroundTasks).
  const activity = createActivity();
  let writer: TranscriptWriter | null = null;
  let maintenance: DbMaintenance | null = null;
  let commitWatch: Db;
  try {
    // The key is needed once more, for the connections of the writer thread, of the
    // maintenance thread (backups, integrity checks) and of the commit watch (db-health:
    // "a write succeeded"); then it is wiped.
    // Both threads start at once: each spends a few hundred milliseconds loading its modules
    // and opening its connection, and neither needs the other.
    const [started, maintained] = await Promise.allSettled([
      createTranscriptWriter({
        db,
        path: opened.path,
        key: resolved.key,
        logger,
        useWorker: config.writerWorker,
      }),
      createDbMaintenance({ db, path: opened.path, key: resolved.key, logger }),
    ]);
    // Both are waited for, so that when one fails the other is closed below.
    if (started.status === 'fulfilled') writer = started.value;
    if (maintained.status === 'fulfilled') maintenance = maintained.value;
    if (started.status === 'rejected') throw started.reason;
    if (maintained.status === 'rejected') throw maintained.reason;
    writer = started.value;
    maintenance = maintained.value;
    commitWatch = openDatabase({
      path: opened.path,
      key: resolved.key,
      readonly: true,
      migrate: false,
    });
  } catch (err) {
    await maintenance?.close().catch(() => {});
    await writer?.close().catch(() => {});
    db.close();
    throw err;
  } finally {
    resolved.key.fill(0);
  }
  // After a spell of requests, once none has come for a while, this thread gives back its
  // connections' page caches and its heap's garbage (the worker threads do the same).
  const idleRelease = releaseWhenIdle(() => releaseMemory([db, commitWatch]), {
    busy: () => activity.inFlight > 0,
  });
  activity.onQuiet(() => idleRelease.touch());
  const dbHealth = createDbHealth({
    logger,
    // Only off this thread: a check of a large file takes seconds.
    quickCheck: (maxErrors) =>
      maintenance.mode === 'worker'
        ? maintenance.quickCheck(maxErrors)
        : Promise.reject(new Error('no maintenance worker')),
    commitVersion: () => dataVersion(commitWatch),
    quarantined: opened.quarantined,
  });

  try {
    let generatedToken: string | null = null;
    let token = config.token ?? (env.CAIRN_TOKEN?.trim() || undefined);
    if (!token) {
      token = getMeta(db, TOKEN_META_KEY) ?? undefined;
      if (!token) {
        token = generateToken();
        setMeta(db, TOKEN_META_KEY, token);
        generatedToken = token;
        log.info('access token generated');
      }
    }

    const settings = withCoreModelOverride(createSettingsService({ db, logger }), config.coreModel);
    const upstream = createUpstreamClient({
      settings,
      logger,
      config: {
        upstreamUrl: config.upstreamUrl,
        upstreamApiKey: config.upstreamApiKey,
        timeoutMs: config.upstreamTimeoutMs,
      },
    });

    const ollamaUpstream = config.ollamaUpstreamUrl
      ? createUpstreamClient({
          settings,
          logger,
          config: { upstreamUrl: config.ollamaUpstreamUrl, timeoutMs: config.upstreamTimeoutMs },
        })
      : null;
    const anthropicUpstream = config.anthropicUpstreamUrl
      ? createUpstreamClient({
          settings,
          logger,
          config: {
            upstreamUrl: config.anthropicUpstreamUrl,
            upstreamApiKey: config.anthropicApiKey,
            apiKeyHeader: 'x-api-key',
            useSettingsProviders: false,
            timeoutMs: config.upstreamTimeoutMs,
          },
        })
      : null;

    const current = settings.get();
    const embedder = createEmbedder({
      backend: embedderConfig.backend ?? current.embeddingBackend,
      modelId: embedderConfig.modelId ?? current.embeddingModel,
      cacheDir: embedderConfig.cacheDir ?? join(dataDir, 'models'),
      localModelPath: embedderConfig.localModelPath,
      allowRemoteModels: embedderConfig.allowRemoteModels ?? true,
      logger,
    });

    // Embeddings: the model loads in the background at start(); until it is ready the word
    // vectors serve vector search, and when the backend is 'none' search runs on FTS5 alone.
    const vectors =
      embedder.state().status === 'disabled'
        ? null
        : createVectorService({
            db,
            embedder,
            index: createVectorIndex(),
            logger,
            clock,
            fallback: wordVectors ?? undefined,
          });
    // What the read path and the distiller both work with.
    const memoryServices = { db, settings, upstream, vectors, logger, clock };
    // Turns' sentence analyses, kept for the word vectors that made them.
    let scorer: { words: WordVectors; score: ReturnType<typeof createClosenessScorer> } | null =
      null;
    const background = createBackgroundTasks(logger.child('jobs'), {
      activity,
      // Recording a chat turn is a write too: a full disk there must show in /health.
      onError: (err) => dbHealth.noteError(err),
      // Work after the requests (recording turns, the distiller's slices) ends a spell too.
      onSettled: () => idleRelease.touch(),
    });
    // The transcript's head query from memory, built in slices when no request is in flight.
    const transcriptHead = createTranscriptHeadIndex(db, {
      logger: logger.child('transcript-head'),
      schedule: (slice) => background.runWhenQuiet('transcript-head', slice),
    });
    const memory = createMemoryReader({
      ...memoryServices,
      transcriptHead,
      relationsOf: (text) => wordVectors?.words()?.relationsFor(text, 0) ?? [],
      meaningOf: (text, relations) => {
        const words = wordVectors?.words();
        return words ? meaningFeatures(words, text, relations) : null;
      },
      rankByMeaning: (question, passages) => {
        const words = wordVectors?.words();
        if (!words) return passages.map(() => 0);
        if (scorer?.words !== words) scorer = { words, score: createClosenessScorer(words) };
        return scorer.score(question, passages);
      },
    });
    // Conversations are read on a worker thread (none when its file is not in the bundle).
    // An idle worker stops (DIGEST_WORKER_IDLE_MS) after this thread's release ran: once more.
    const digestThread = createDigestThread({ logger, onRetired: () => idleRelease.touch() });
    const distiller = createDistiller({
      ...memoryServices,
      wordVectors: () => wordVectors?.words() ?? null,
      digestThread,
      // A long conversation is read in slices, each at a moment no request is in flight.
      pause: () => new Promise<void>((resolve) => background.runWhenQuiet('distil', resolve)),
      ...config.distiller,
    });
    const deletion = createDeletionService({ db, vectors, logger, clock });
    const consolidator = createConsolidator({ db, settings, vectors, deletion, logger, clock });

    const services: EngineServices = {
      db,
      dataDir,
      dbPath: opened.path,
      version: packageJson.version,
      logger,
      clock,
      keySource,
      token,
      settings,
      upstream,
      memory,
      distiller,
      consolidator,
      deletion,
      embedder: {
        state: () =>
          vectors?.state() ?? {
            ...embedder.state(),
            active: 'none',
            wordVectors: null,
            retry: null,
          },
        retry: () => vectors?.retryNow() ?? Promise.resolve(),
        wordVectors: () => wordVectors?.words() ?? null,
      },
      vectors,
      startedAt: clock.now(),
      quarantined: opened.quarantined,
      dbHealth,
      backups: createBackupService({ dataDir, maintenance, logger }),
      recoveryKey: () =>
        getRecoveryKey({
          dataDir,
          env,
          dbKeyHex: config.dbKey,
          useKeychain: config.useKeychain ?? true,
          logger: logger.child('secrets'),
        }),
    };

    const staticUiDir = config.staticUiDir ?? defaultStaticUiDir();
    const appOptions: AppOptions = {
      background,
      transcriptWriter: writer,
      activity,
      allowedOrigins: config.allowedOrigins,
      chatBodyLimit: config.chatBodyLimit,
      ingestBodyLimit: config.ingestBodyLimit,
      staticUiDir,
      ollamaUpstream,
      anthropicUpstream,
      upstreamResponses: config.upstreamResponses,
    };
    const host = config.host ?? '127.0.0.1';
    const extraHosts = [...(config.allowedHosts ?? [])];
    if (!['127.0.0.1', 'localhost', '::1'].includes(host)) {
      if (!['0.0.0.0', '::'].includes(host)) extraHosts.push(host);
      log.warn('listening beyond loopback on request', { host, allowedHosts: extraHosts });
    }
    if (extraHosts.length > 0) appOptions.allowedHosts = extraHosts;
    const app = buildApp(services, appOptions);

    let started = false;
    let stopping: Promise<void> | null = null;
    const embedderAbort = new AbortController();

    return {
      services,
      app,
      recoveryKey: resolved.recoveryKey,
      generatedToken,
      quarantined: opened.quarantined,
      background,
      writerMode: writer.mode,
      async start() {
        distiller.recover();
        const url = await listen(app, { host, port: config.port ?? 1337 });
        started = true;
        consolidator.startTimer();
        dbHealth.startCheck();
        // The model loads in the background (then the index, then the backfill of rows
        // without vectors): FTS5 search serves meanwhile.
        if (vectors) {
          void vectors.start(embedderAbort.signal).then(() => {
            const st = embedder.state();
            if (st.status === 'error') log.warn('embedding model unavailable', { error: st.error });
          });
        }
        log.info('listening', { url, keySource });
        return { url };
      },
      stop() {
        stopping ??= (async () => {
          idleRelease.stop();
          embedderAbort.abort();
          consolidator.stopTimer();
          try {
            await app.close();
          } catch (err) {
            log.error('closing the server failed', { err });
          }
          const backupsClosed = services.backups.close();
          await distiller.flush(3000).catch((err: unknown) => log.error('flush failed', { err }));
          await digestThread?.close();
          distiller.stop();
          // Its slices would otherwise run to the end in the drain below.
          transcriptHead.close();
          await background.drain(3000);
          await writer.close().catch((err: unknown) => log.error('writer close failed', { err }));
          upstream.close();
          ollamaUpstream?.close();
          anthropicUpstream?.close();
          await embedder.close().catch(() => {});
          await maintenance.close();
          // A copy that was being written returned (or was given up) with the worker.
          await backupsClosed;
          commitWatch.close();
          // What waits to share a commit (a new turn's vectors) is written before the end.
          groupCommit(db).flush();
          try {
            db.pragma('wal_checkpoint(TRUNCATE)');
          } catch (err) {
            log.warn('checkpoint at shutdown failed', { err: (err as Error).message });
          }
          db.close();
          if (started) log.info('stopped');
        })();
        return stopping;
      },
    };
  } catch (err) {
    idleRelease.stop();
    await writer.close().catch(() => {});
    await maintenance.close().catch(() => {});
    commitWatch.close();
    db.close();
    throw err;
  }
}
