// HTTP API shapes (DESIGN §9). One zod schema per shape, used by the server to validate
// and by the renderer's client to type and check responses.
import { z } from 'zod';

/** An agent id as every request names it (`agent_id`). */
export const agentId = z
  .string()
  .trim()
  .min(1, 'agent_id must not be empty')
  .max(200, 'agent_id is at most 200 characters');
const conversationId = z.string().trim().min(1).max(200);
const isoOrDateString = z.string().trim().min(1).max(100);

// ---------- health ----------
export const KeySource = z.enum(['keychain', 'env', 'keyfile', 'recovery']);
export type KeySource = z.infer<typeof KeySource>;

const EmbedderStatusSchema = z.enum([
  'disabled',
  'idle',
  'downloading',
  'loading',
  'ready',
  'error',
]);

/** Which embedder serves vector search now (keyword search always runs). */
export const ActiveEmbedder = z.enum(['sentence_model', 'word_vectors', 'none']);
export type ActiveEmbedder = z.infer<typeof ActiveEmbedder>;

/**
 * The sentence model's state (status, model, progress, dims, error), plus which embedder
 * serves vector search, the static word vectors used until the model is ready, and the
 * retry schedule of a failed model load.
 */
export const EmbedderStateSchema = z.object({
  status: EmbedderStatusSchema,
  model: z.string(),
  progress: z.number().nullable(),
  dims: z.number().nullable(),
  error: z.string().nullable(),
  active: ActiveEmbedder.optional(),
  wordVectors: z
    .object({
      status: EmbedderStatusSchema,
      model: z.string(),
      dims: z.number().nullable(),
      error: z.string().nullable(),
    })
    .nullable()
    .optional(),
  retry: z
    .object({
      /** Failed loads since the last success or manual retry. */
      attempts: z.number(),
      maxAttempts: z.number(),
      /** When the next automatic attempt runs (ms since the epoch); null when none is planned. */
      nextAt: z.number().nullable(),
    })
    .nullable()
    .optional(),
});
export type EmbedderStateDto = z.infer<typeof EmbedderStateSchema>;

/** Why the database makes /health `degraded`. */
export const DatabaseProblem = z.enum(['damaged', 'disk_full', 'quarantined']);
export type DatabaseProblem = z.infer<typeof DatabaseProblem>;
export const IntegrityCheckState = z.enum([
  'pending',
  'running',
  'passed',
  'failed',
  'unavailable',
]);
export type IntegrityCheckState = z.infer<typeof IntegrityCheckState>;

export const HealthResponse = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  encryption: z.object({ enabled: z.boolean(), cipher: z.string(), keySource: KeySource }),
  embedder: EmbedderStateSchema,
  upstream: z.object({ configured: z.boolean(), url: z.string().nullable() }),
  memoryEnabled: z.boolean(),
  uptimeSeconds: z.number(),
  /** Where an unreadable database was moved at start-up (never deleted), else null. */
  quarantined: z.string().nullable().default(null),
  /** What makes the status `degraded` (the most serious first), else null. */
  problem: DatabaseProblem.nullable().default(null),
  /** Why, in words for the user, and what to do about it (null when nothing is wrong). */
  reason: z.string().nullable().default(null),
  action: z.string().nullable().default(null),
  /** The background PRAGMA quick_check of the database file (after start, after damage). */
  integrityCheck: IntegrityCheckState.default('pending'),
});
export type HealthResponse = z.infer<typeof HealthResponse>;

// ---------- ingest ----------
export const IngestTurn = z.object({
  user: z.string().max(200_000),
  assistant: z.string().max(200_000).default(''),
  date: isoOrDateString.optional(),
});
export const IngestRequest = z.object({
  agent_id: agentId,
  conversation_id: conversationId,
  turns: z.array(IngestTurn).min(1, 'turns must hold at least one turn').max(10_000),
  session_date: isoOrDateString.optional(),
  skip_extraction: z.boolean().optional(),
});
export type IngestRequest = z.infer<typeof IngestRequest>;
export const IngestResponse = z.object({
  status: z.literal('ok'),
  turns_ingested: z.number().int(),
});
export type IngestResponse = z.infer<typeof IngestResponse>;

// ---------- agents ----------
/** Per-agent controls; null = the global setting applies. */
export const AgentControls = z.object({
  display_name: z.string().trim().min(1).max(100).nullable(),
  paused: z.boolean(),
  memory_budget_tokens: z.number().int().min(100).max(4000).nullable(),
  episode_retention_days: z.number().int().min(0).max(3650).nullable(),
  transcript_retention_days: z.number().int().min(0).max(3650).nullable(),
});
export type AgentControls = z.infer<typeof AgentControls>;
/** PATCH /agents/:id: any subset; unknown keys are refused. */
export const AgentControlsPatch = AgentControls.partial().strict();
export type AgentControlsPatch = z.infer<typeof AgentControlsPatch>;

export const AgentSummary = z.object({
  id: z.string(),
  /** The name the user gave it (the id stays what clients send). */
  display_name: z.string().nullable().default(null),
  paused: z.boolean().default(false),
  pinned_count: z.number().int(),
  episode_count: z.number().int(),
  transcript_count: z.number().int(),
  pending_count: z.number().int(),
  last_activity_at: z.string().nullable(),
});
export type AgentSummary = z.infer<typeof AgentSummary>;
export const AgentsResponse = z.object({ agents: z.array(AgentSummary) });
export type AgentsResponse = z.infer<typeof AgentsResponse>;

// ---------- search ----------
export const SearchScope = z.enum(['pinned', 'episodes', 'transcript']);
export type SearchScope = z.infer<typeof SearchScope>;
export const SearchRequest = z.object({
  agent_id: agentId,
  scope: SearchScope,
  query: z.string().max(10_000),
  top_k: z.number().int().min(1).max(100).optional(),
  days: z.number().int().min(1).max(36_500).optional(),
});
export type SearchRequest = z.infer<typeof SearchRequest>;
export const SearchResult = z.object({
  id: z.number().int(),
  scope: SearchScope,
  content: z.string(),
  score: z.number(),
  created_at: z.string(),
  conversation_id: z.string().nullable(),
});
export type SearchResult = z.infer<typeof SearchResult>;
export const SearchResponse = z.object({ results: z.array(SearchResult) });
export type SearchResponse = z.infer<typeof SearchResponse>;

// ---------- context ----------
export const MemorySection = z.enum(['identity', 'pinned', 'episode', 'transcript', 'none']);
export type MemorySection = z.infer<typeof MemorySection>;
export const ContextRequest = z.object({ agent_id: agentId, message: z.string().max(200_000) });
export type ContextRequest = z.infer<typeof ContextRequest>;
export const ContextResponse = z.object({
  section: MemorySection,
  block: z.string(),
  tokens: z.number().int(),
});
export type ContextResponse = z.infer<typeof ContextResponse>;

// ---------- consolidation ----------
export const ConsolidateRequest = z.object({
  agent_id: agentId.optional(),
  /** Report what each step would change and change nothing. */
  dry_run: z.boolean().optional(),
});
export const ConsolidationCounts = z.object({
  decayed: z.number().int(),
  merged: z.number().int(),
  promoted: z.number().int(),
  evicted: z.number().int(),
  pruned_episodes: z.number().int(),
  pruned_transcript: z.number().int(),
});
export type ConsolidationCounts = z.infer<typeof ConsolidationCounts>;
export const ConsolidationRun = z.object({
  id: z.number().int(),
  trigger: z.enum(['timer', 'manual']),
  agent_id: z.string().nullable(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  status: z.enum(['running', 'ok', 'error']),
  counts: ConsolidationCounts,
  error: z.string().nullable(),
});
export type ConsolidationRun = z.infer<typeof ConsolidationRun>;
/** POST /memory/consolidate with dry_run: what a run would change, per step. */
export const ConsolidationDryRun = z.object({
  dry_run: z.literal(true),
  agent_id: z.string().nullable(),
  counts: ConsolidationCounts,
});
export type ConsolidationDryRun = z.infer<typeof ConsolidationDryRun>;
/** POST /memory/consolidate answers with the run, whose counts are per step. */
export const ConsolidateResponse = ConsolidationRun;
export const ConsolidationRunsResponse = z.object({ runs: z.array(ConsolidationRun) });

// ---------- browse / edit ----------
export const Pagination = z.object({
  agent_id: agentId,
  limit: z.coerce.number().int().min(1).max(500).default(50),
  offset: z.coerce.number().int().min(0).default(0),
  q: z.string().max(1000).optional(),
});

export const PinnedFact = z.object({
  id: z.number().int(),
  agent_id: z.string(),
  content: z.string(),
  salience: z.number(),
  source_count: z.number().int(),
  use_count: z.number().int(),
  last_used: z.string().nullable(),
  tags: z.array(z.string()),
  status: z.enum(['active', 'disabled']),
  pinned_by_user: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type PinnedFact = z.infer<typeof PinnedFact>;
export const PinnedListQuery = Pagination.extend({
  status: z.enum(['active', 'disabled', 'all']).default('all'),
  sort: z.enum(['salience', 'created_at', 'last_used', 'use_count']).default('salience'),
});
export const PinnedListResponse = z.object({ items: z.array(PinnedFact), total: z.number().int() });
export const PinnedCreate = z
  .object({
    agent_id: agentId,
    content: z.string().trim().min(1, 'content must not be empty').max(2000),
    salience: z.number().min(0).max(1).optional(),
    tags: z.array(z.string().trim().min(1).max(50)).max(20).optional(),
    pinned_by_user: z.boolean().optional(),
  })
  // Unknown fields are refused (400), not silently dropped: a typo must not look like success.
  .strict();
export const PinnedPatch = z
  .object({
    content: z.string().trim().min(1, 'content must not be empty').max(2000).optional(),
    salience: z.number().min(0).max(1).optional(),
    tags: z.array(z.string().trim().min(1).max(50)).max(20).optional(),
    status: z.enum(['active', 'disabled']).optional(),
    pinned_by_user: z.boolean().optional(),
  })
  .strict()
  .refine((p) => Object.keys(p).length > 0, 'nothing to change');

export const Episode = z.object({
  id: z.number().int(),
  agent_id: z.string(),
  conversation_id: z.string().nullable(),
  summary: z.string(),
  topics: z.array(z.string()),
  entities: z.array(z.string()),
  decisions: z.array(z.string()),
  action_items: z.array(z.string()),
  salience: z.number(),
  conversation_at: z.string(),
  last_used: z.string().nullable(),
  created_at: z.string(),
});
export type Episode = z.infer<typeof Episode>;
export const EpisodeListResponse = z.object({ items: z.array(Episode), total: z.number().int() });
/** GET /memory/episodes (write-path helper: additive). */
export const EpisodeListQuery = Pagination.extend({
  conversation_id: z.string().max(200).optional(),
});
export const EpisodePatch = z
  .object({
    summary: z.string().trim().min(1).max(20_000).optional(),
    topics: z.array(z.string().max(100)).max(50).optional(),
    entities: z.array(z.string().max(100)).max(50).optional(),
    decisions: z.array(z.string().max(1000)).max(50).optional(),
    action_items: z.array(z.string().max(1000)).max(50).optional(),
    salience: z.number().min(0).max(1).optional(),
  })
  .strict()
  .refine((p) => Object.keys(p).length > 0, 'nothing to change');

export const TranscriptRow = z.object({
  id: z.number().int(),
  agent_id: z.string(),
  conversation_id: z.string(),
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.string(),
  created_at: z.string(),
});
export type TranscriptRow = z.infer<typeof TranscriptRow>;
export const TranscriptListQuery = Pagination.extend({
  conversation_id: z.string().max(200).optional(),
});
/** GET /memory/pinned/:id/sources: the messages a fact came from. */
export const FactSourcesResponse = z.object({ items: z.array(TranscriptRow) });
export type FactSourcesResponse = z.infer<typeof FactSourcesResponse>;
export const TranscriptListResponse = z.object({
  items: z.array(TranscriptRow),
  total: z.number().int(),
});

export const Identity = z.object({
  agent_id: z.string(),
  narrative: z.string(),
  overrides: z.array(z.string()),
  updated_at: z.string().nullable(),
});
export type Identity = z.infer<typeof Identity>;
export const IdentityPut = z
  .object({
    agent_id: agentId,
    narrative: z.string().max(20_000).optional(),
    overrides: z.array(z.string().trim().min(1).max(1000)).max(100).optional(),
  })
  .strict();

/** GET /memory/recovery-key: the key that opens the database if the keychain entry is lost. */
export const RecoveryKeyResponse = z.object({ recovery_key: z.string() });
export type RecoveryKeyResponse = z.infer<typeof RecoveryKeyResponse>;

export const DeletedResponse = z.object({ deleted: z.boolean(), id: z.number().int().optional() });

// ---------- stats / diagnostics ----------
export const StatsResponse = z.object({
  agents: z.number().int(),
  pinned: z.number().int(),
  episodes: z.number().int(),
  transcript: z.number().int(),
  pending: z.number().int(),
  dead_letters: z.number().int(),
  vectors: z.number().int(),
  db_size_bytes: z.number().int(),
  history: z
    .array(
      z.object({
        at: z.string(),
        pinned: z.number(),
        episodes: z.number(),
        avg_salience: z.number(),
      }),
    )
    .default([]),
});
export type StatsResponse = z.infer<typeof StatsResponse>;

export const PendingSignal = z.object({
  id: z.number().int(),
  agent_id: z.string(),
  conversation_id: z.string(),
  status: z.enum(['pending', 'processing', 'processed', 'dead_letter']),
  attempts: z.number().int(),
  last_error: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export const ProcessingLogEntry = z.object({
  id: z.number().int(),
  kind: z.enum(['distill', 'consolidate', 'embed']),
  agent_id: z.string().nullable(),
  status: z.enum(['ok', 'error', 'dead_letter', 'skipped']),
  model: z.string().nullable(),
  tokens: z.number().int().nullable(),
  duration_ms: z.number().int(),
  error: z.string().nullable(),
  created_at: z.string(),
});
export const DiagnosticsResponse = z.object({
  pending: z.array(PendingSignal),
  dead_letters: z.array(PendingSignal),
  processing_log: z.array(ProcessingLogEntry),
  db_size_bytes: z.number().int(),
  wal_size_bytes: z.number().int(),
  embedder: EmbedderStateSchema,
});
export type DiagnosticsResponse = z.infer<typeof DiagnosticsResponse>;

// ---------- chat completions (validated loosely: forwarded as is) ----------
const ContentPart = z.object({ type: z.string() }).passthrough();
export const ChatMessage = z
  .object({
    role: z.enum(['system', 'user', 'assistant', 'tool', 'developer', 'function']),
    content: z.union([z.string(), z.array(ContentPart), z.null()]).optional(),
  })
  .passthrough();
export const ChatCompletionRequest = z
  .object({
    model: z.string().min(1, 'model is required').max(500),
    messages: z.array(ChatMessage).min(1, 'messages must not be empty'),
    stream: z.boolean().optional(),
  })
  .passthrough();
export type ChatCompletionRequest = z.infer<typeof ChatCompletionRequest>;

// ---------- trash (deleted memory, restorable for trashDays) ----------
export const TrashItem = z.object({
  id: z.number().int(),
  agent_id: z.string(),
  /** fact, episode, message, conversation, agent, selection, prune, evict */
  kind: z.string(),
  label: z.string(),
  deleted_at: z.string(),
  /** When it is purged for good. */
  expires_at: z.string(),
  item_count: z.number().int(),
  counts: z.record(z.string(), z.number().int()),
});
export type TrashItem = z.infer<typeof TrashItem>;
export const TrashListQuery = z.object({
  agent_id: agentId.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
export const TrashListResponse = z.object({ items: z.array(TrashItem), total: z.number().int() });
export type TrashListResponse = z.infer<typeof TrashListResponse>;
/** What a deletion answers: the trash entry that can bring it back. */
export const DeletionResponse = z.object({
  deleted: z.literal(true),
  trash_id: z.number().int(),
  counts: z.record(z.string(), z.number().int()),
});
export type DeletionResponse = z.infer<typeof DeletionResponse>;
const idList = z.array(z.number().int().min(1)).max(100_000).optional();
/** POST /memory/delete: a selection of one agent's rows, as one trash entry. */
export const BulkDeleteRequest = z
  .object({
    agent_id: agentId,
    pinned: idList,
    episodes: idList,
    transcript: idList,
  })
  .strict();

// ---------- activity (what memory did for recent requests) ----------
/** Where an injected line came from; identity lines have no row id. */
export const ActivitySource = z.object({
  scope: z.enum(['identity', 'pinned', 'episodes', 'transcript']),
  id: z.number().int().nullable(),
});
export type ActivitySource = z.infer<typeof ActivitySource>;
export const ActivityLine = z.object({
  /** null unless the user opted in to keep the lines' text (`activityKeepLines`). */
  text: z.string().nullable(),
  source: ActivitySource,
});
export type ActivityLine = z.infer<typeof ActivityLine>;
export const ActivityItem = z.object({
  id: z.number().int(),
  at: z.string(),
  agent_id: z.string(),
  conversation_id: z.string(),
  /** The wire format: chat, anthropic, responses, ollama-chat, ... */
  protocol: z.string(),
  section: MemorySection,
  tokens: z.number().int(),
  /** The `x-cairn-memory` value the request was answered with. */
  header: z.string(),
  lines: z.array(ActivityLine),
});
export type ActivityItem = z.infer<typeof ActivityItem>;
export const ActivityQuery = z.object({
  agent_id: agentId.optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(50),
});
export const ActivityResponse = z.object({ items: z.array(ActivityItem) });
export type ActivityResponse = z.infer<typeof ActivityResponse>;

// ---------- answers of the agent and trash routes (typed for the renderer's client) ----------
/** GET /agents/:id */
export const AgentDetailResponse = z.object({ agent: AgentSummary, controls: AgentControls });
/** PATCH /agents/:id */
export const AgentControlsResponse = z.object({ controls: AgentControls });
/** POST /memory/trash/:id/restore */
export const TrashRestoreResponse = z.object({ restored: z.literal(true), item: TrashItem });
/** DELETE /memory/trash/:id */
export const TrashPurgeResponse = z.object({ purged: z.literal(true), id: z.number().int() });

/** GET /memory/activity/source: the memory row behind an injected line, as it is now. */
export const ActivitySourceQuery = z.object({
  agent_id: agentId,
  scope: ActivitySource.shape.scope,
  /** Absent for the identity narrative. */
  id: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
});
export const ActivitySourceResponse = z.object({
  scope: ActivitySource.shape.scope,
  id: z.number().int().nullable(),
  text: z.string(),
  conversation_id: z.string().nullable(),
  created_at: z.string().nullable(),
});
export type ActivitySourceResponse = z.infer<typeof ActivitySourceResponse>;

// ---------- what a client sends and receives, derived from the schemas above ----------
/**
 * A query string as a client sends it: the route's parsed query, where every field the server
 * defaults may be left out (the input side of `z.coerce` is `unknown`, too loose to type with).
 */
type SentQuery<S extends z.ZodType, Needed extends keyof z.output<S>> = Partial<z.output<S>> &
  Pick<z.output<S>, Needed>;
/** GET /memory/pinned */
export type PinnedListParams = SentQuery<typeof PinnedListQuery, 'agent_id'>;
export type PinnedStatusFilter = z.output<typeof PinnedListQuery>['status'];
export type PinnedSort = z.output<typeof PinnedListQuery>['sort'];
/** GET /memory/episodes */
export type EpisodeListParams = SentQuery<typeof EpisodeListQuery, 'agent_id'>;
/** GET /memory/transcript */
export type TranscriptListParams = SentQuery<typeof TranscriptListQuery, 'agent_id'>;
/** GET /memory/trash */
export type TrashListParams = SentQuery<typeof TrashListQuery, never>;
/** GET /memory/activity */
export type ActivityParams = SentQuery<typeof ActivityQuery, never>;

/** DELETE /memory/{pinned,episodes,transcript}/:id: the row forgotten and its trash entry. */
export const ForgetResponse = DeletedResponse.extend({ trash_id: z.number().int() });
export type ForgetResponse = z.infer<typeof ForgetResponse>;
/** GET /v1/models: forwarded from the provider, in the OpenAI list shape. */
export const ModelsResponse = z.object({
  data: z.array(z.object({ id: z.string(), owned_by: z.string().optional() }).passthrough()),
});
export type ModelsResponse = z.infer<typeof ModelsResponse>;
export type PendingSignal = z.infer<typeof PendingSignal>;
/** POST /memory/diagnostics/retry/:id: the dead letter, pending again. */
export const RetryDeadLetterResponse = PendingSignal;
