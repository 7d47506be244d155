// The contracts between the engine's parts. engine.ts builds an EngineServices object;
// route modules, jobs and the desktop shell receive it (or the parts they need).
import type {
  ActivitySource,
  ConsolidationCounts,
  ConsolidationRun,
  EmbedderStateDto,
  KeySource,
  MemorySection,
  SearchRequest,
  SearchResult,
} from '../../shared/api.ts';
import type { Settings, SettingsPatch } from '../../shared/settings.ts';
import type { BackupService } from './backup-service.ts';
import type { Clock } from './clock.ts';
import type { DbHealth } from './db-health.ts';
import type { Logger } from './logger.ts';
import type { DeletionService } from './memory/deletion.ts';
import type { Db } from './store/db.ts';
import type {
  ForwardRequest,
  UpstreamResponse,
  UpstreamTarget,
} from './upstream/upstream-client.ts';
import type { VectorKind } from './store/vectors.ts';
import type { WordVectors } from './vector/word-vectors.ts';

// Declared with the index that stores vectors by kind; part of the VectorService contract.
export type { VectorKind };

export interface SettingsService {
  get(): Settings;
  /** Validates (ranges enforced), persists in the encrypted db, notifies listeners. */
  update(patch: SettingsPatch): Settings;
  onChange(listener: (next: Settings, prev: Settings) => void): () => void;
}

/** A chat message as the OpenAI API carries it (content may be a string or parts). */
export interface ChatMessageLike {
  role: string;
  content?: string | Array<{ type: string; text?: string; [k: string]: unknown }> | null;
  [k: string]: unknown;
}

export interface CompletionOptions {
  model: string;
  messages: ChatMessageLike[];
  /** Ask for a JSON object (structured output) when the provider supports it. */
  json?: boolean;
  temperature?: number;
  maxTokens?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
}
export interface CompletionResult {
  content: string;
  model: string;
  tokens: number | null;
}

/** The upstream provider (OpenAI-compatible). Used by the proxy and by the Core Model. */
export interface UpstreamClient {
  /** Resolved from settings on every call (providers can change at runtime). */
  baseUrl(): string | null;
  /** Where requests go now, with the API key; null when no provider is configured. */
  target(): UpstreamTarget | null;
  /** Answer-headers / inter-chunk timeout in ms. */
  timeoutMs(): number;
  /** A one-shot completion, used for distillation and the llm gate. Throws CairnError. */
  complete(options: CompletionOptions): Promise<CompletionResult>;
  /**
   * Sends a request and resolves with the provider's answer when it answered 2xx (any status
   * with `anyStatus`). Throws CairnError: no_upstream_configured, upstream_unavailable,
   * upstream_timeout, or upstream_error (4xx keeps the provider's status and message; 5xx
   * becomes 502).
   */
  forward(request: ForwardRequest): Promise<UpstreamResponse>;
  /** Closes kept-alive connections (engine shutdown). */
  close(): void;
}

export interface ContextResult {
  section: MemorySection;
  /** The `[Memory] ... [/Memory]` block, or '' when nothing would be injected. */
  block: string;
  tokens: number;
  /** The block's lines in order, each with the memory row it came from (the Activity view). */
  lines?: { text: string; source: ActivitySource }[];
}

/** Read path (DESIGN §7): gate, search, planner. */
export interface MemoryReader {
  /** What would be injected for this message (also used by POST /memory/context). */
  buildContext(
    agentId: string,
    message: string,
    options?: { signal?: AbortSignal; bumpUsage?: boolean },
  ): Promise<ContextResult>;
  search(request: SearchRequest): Promise<SearchResult[]>;
}

/** Write path (DESIGN §6): debounced distillation of recorded turns. */
export interface DistillerService {
  /**
   * A turn was recorded (hot path: must return at once). `model`: the request's model when
   * the OpenAI-compatible upstream answered it (auto mode distils the conversation with it).
   */
  notifyTurn(agentId: string, conversationId: string, model?: string | null): void;
  /** Distil this conversation's pending signals now (ingest without skip_extraction). */
  distilNow(agentId: string, conversationId: string): Promise<void>;
  /** Re-arm pending signals found in the database at start-up. */
  recover(): void;
  /** Shutdown: process what can be processed within `timeoutMs`, then stop. */
  flush(timeoutMs: number): Promise<void>;
}

export interface ConsolidatorService {
  /** One consolidation pass (decay, merge, promote, evict, prune); never on the request path. */
  run(trigger: 'timer' | 'manual', agentId?: string): Promise<ConsolidationRun>;
  /** What a pass would change, per step; deletes nothing. */
  dryRun(agentId?: string): Promise<ConsolidationCounts>;
}

/** What the rest of the engine needs to know about embeddings (vector/ owns the rest). */
export interface EmbedderStatus {
  state(): EmbedderStateDto;
  /** Tries a failed sentence-model load again now (POST /memory/embedder/retry). */
  retry(): Promise<void>;
  /** Static word vectors (query expansion, relation mapping); null until loaded or when off. */
  wordVectors(): WordVectors | null;
}

/** Embedding-backed search (vector/vector-service.ts). Absent or not ready → FTS5 only. */
export interface VectorService {
  isReady(): boolean;
  /** The model whose vectors serve search now (sentence model or static word vectors). */
  activeModel(): string | null;
  /** Embed and store (BLOB in the encrypted db) + add to the in-memory index. */
  indexRows(kind: VectorKind, rows: { id: number; agentId: string; text: string }[]): Promise<void>;
  remove(kind: VectorKind, id: number): void;
  search(
    agentId: string,
    kind: VectorKind,
    queryText: string,
    k: number,
  ): Promise<{ id: number; score: number }[]>;
  /** Embed rows that have no vector for the current model yet (after the model becomes ready). */
  backfill(signal?: AbortSignal): Promise<number>;
}

export interface EngineServices {
  db: Db;
  dataDir: string;
  dbPath: string;
  version: string;
  logger: Logger;
  clock: Clock;
  keySource: KeySource;
  /** The access token clients pass as `Authorization: Bearer`. */
  token: string;
  settings: SettingsService;
  upstream: UpstreamClient;
  memory: MemoryReader;
  distiller: DistillerService;
  consolidator: ConsolidatorService;
  /** Every deletion of memory goes through the trash. */
  deletion: DeletionService;
  embedder: EmbedderStatus;
  /** null when embeddings are disabled (embeddingBackend 'none'). */
  vectors: VectorService | null;
  startedAt: number;
  /** Where an unreadable database was moved at start-up (shown in /health and the UI). */
  quarantined: string | null;
  /** Damage, disk full, quarantine: what /health and the Overview page report. */
  dbHealth: DbHealth;
  /** Encrypted copies for GET /memory/backup, one at a time. */
  backups: BackupService;
  /**
   * The recovery key, re-derived on demand from the key's source (keychain, key file or
   * environment) so the engine keeps no copy of the key in memory.
   */
  recoveryKey(): Promise<string>;
}
