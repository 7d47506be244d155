// The one typed client over Cairn's HTTP management API (DESIGN §9). Every response is
// validated with the shared zod schemas, so a server/renderer mismatch fails loudly here
// instead of rendering half-empty pages.
import { z } from 'zod';
import {
  ActivityResponse,
  ActivitySourceResponse,
  AgentControlsPatch,
  AgentControlsResponse,
  AgentDetailResponse,
  BulkDeleteRequest,
  ConsolidationDryRun,
  DeletionResponse,
  TrashListResponse,
  TrashPurgeResponse,
  TrashRestoreResponse,
  type ActivitySource,
  RecoveryKeyResponse,
  AgentsResponse,
  ConsolidateResponse,
  ConsolidationRunsResponse,
  ContextResponse,
  DiagnosticsResponse,
  EmbedderStateSchema,
  EpisodeListResponse,
  Episode,
  EpisodePatch,
  HealthResponse,
  Identity,
  IdentityPut,
  IngestRequest,
  IngestResponse,
  PinnedCreate,
  PinnedFact,
  PinnedListResponse,
  PinnedPatch,
  SearchRequest,
  SearchResponse,
  StatsResponse,
  FactSourcesResponse,
  ForgetResponse,
  ModelsResponse,
  RetryDeadLetterResponse,
  TranscriptListResponse,
  type ActivityParams,
  type EpisodeListParams,
  type PinnedListParams,
  type TranscriptListParams,
  type TrashListParams,
} from '../../../shared/api.ts';
import {
  MemoryExport,
  MemoryImportRequest,
  MemoryImportResponse,
} from '../../../shared/memory-export.ts';
import { PublicSettings, SettingsPatch } from '../../../shared/settings.ts';

/** An error answered by the API (`{error:{message,type,code}}`) or a network failure. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly type: string;
  constructor(message: string, status: number, code: string, type: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.type = type;
  }
}

export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof z.ZodError) return err.issues.map((i) => i.message).join('; ');
  if (err instanceof Error) return err.message;
  return String(err);
}

const ApiErrorBody = z.object({
  error: z.object({ message: z.string(), type: z.string().optional(), code: z.unknown() }),
});

export interface ApiClientOptions {
  baseUrl: string;
  token: string | null;
  fetch?: typeof fetch;
  /** Called when the server answers 401, so the UI can ask for the token again. */
  onUnauthorized?: () => void;
}

type Query = Record<string, string | number | boolean | undefined | null>;

/** The body as JSON; undefined when it is empty or not JSON (the schema then says so). */
async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function queryString(q: Query): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) {
    if (v === undefined || v === null || v === '') continue;
    params.set(k, String(v));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

export function createApiClient(options: ApiClientOptions) {
  const base = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  type SendInit = { query?: Query; body?: unknown; auth?: boolean; signal?: AbortSignal };

  /** One call to the API: the answer when it is a success, else the ApiError that says why. */
  async function send(method: string, path: string, init: SendInit, accept?: string) {
    const headers: Record<string, string> = accept ? { accept } : {};
    if (init.auth !== false && options.token) headers.authorization = `Bearer ${options.token}`;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await doFetch(`${base}${path}${queryString(init.query ?? {})}`, {
        method,
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: init.signal,
      });
    } catch (err) {
      if (err instanceof Error && err.name === 'AbortError') throw err;
      throw new ApiError(
        `Cannot reach the Cairn server at ${base}. Is it running?`,
        0,
        'network_error',
        'network_error',
      );
    }
    if (!res.ok) throw await refusal(res);
    return res;
  }

  /** The error a refused call answered (`{error:{message,type,code}}`), or its status. */
  async function refusal(res: Response): Promise<ApiError> {
    if (res.status === 401) options.onUnauthorized?.();
    const parsed = ApiErrorBody.safeParse(await readJson(res));
    if (parsed.success) {
      const { message, type, code } = parsed.data.error;
      return new ApiError(message, res.status, String(code ?? 'error'), type ?? 'error');
    }
    return new ApiError(
      `The server answered ${res.status} ${res.statusText}`.trim(),
      res.status,
      'http_error',
      'http_error',
    );
  }

  /** A JSON call whose answer is checked with the route's shared schema. */
  async function request<T>(
    schema: z.ZodType<T>,
    method: string,
    path: string,
    init: SendInit = {},
  ): Promise<T> {
    const res = await send(method, path, init, 'application/json');
    const parsed = schema.safeParse(await readJson(res));
    if (!parsed.success) {
      throw new ApiError(
        `Unexpected response from ${method} ${path}: ${parsed.error.issues
          .slice(0, 3)
          .map((i) => `${i.path.join('.') || '(root)'} ${i.message}`)
          .join('; ')}`,
        res.status,
        'invalid_response',
        'invalid_response',
      );
    }
    return parsed.data;
  }

  return {
    baseUrl: base,
    token: options.token,

    health: async (signal?: AbortSignal) =>
      request(HealthResponse, 'GET', '/health', { auth: false, signal }),
    models: async () => request(ModelsResponse, 'GET', '/v1/models'),
    agents: async () => request(AgentsResponse, 'GET', '/agents'),
    getAgent: async (agentId: string) =>
      request(AgentDetailResponse, 'GET', `/agents/${encodeURIComponent(agentId)}`),
    patchAgent: async (agentId: string, patch: AgentControlsPatch) =>
      request(AgentControlsResponse, 'PATCH', `/agents/${encodeURIComponent(agentId)}`, {
        body: AgentControlsPatch.parse(patch),
      }),
    /** Moves everything the agent remembers to the trash (one entry). */
    deleteAgent: async (agentId: string) =>
      request(DeletionResponse, 'DELETE', `/agents/${encodeURIComponent(agentId)}`),
    deleteConversation: async (conversationId: string, agentId: string) =>
      request(
        DeletionResponse,
        'DELETE',
        `/memory/conversations/${encodeURIComponent(conversationId)}`,
        { query: { agent_id: agentId } },
      ),
    /** Deletes a selection of one agent's rows as one trash entry. */
    deleteSelection: async (body: z.input<typeof BulkDeleteRequest>) =>
      request(DeletionResponse, 'POST', '/memory/delete', { body: BulkDeleteRequest.parse(body) }),

    listTrash: async (q: TrashListParams) =>
      request(TrashListResponse, 'GET', '/memory/trash', { query: { ...q } }),
    restoreTrash: async (trashId: number) =>
      request(TrashRestoreResponse, 'POST', `/memory/trash/${trashId}/restore`, { body: {} }),
    /** Purges a trash entry now, for good. */
    purgeTrash: async (trashId: number) =>
      request(TrashPurgeResponse, 'DELETE', `/memory/trash/${trashId}`),

    activity: async (q: ActivityParams) =>
      request(ActivityResponse, 'GET', '/memory/activity', { query: { ...q } }),
    activitySource: async (agentId: string, source: ActivitySource) =>
      request(ActivitySourceResponse, 'GET', '/memory/activity/source', {
        query: { agent_id: agentId, scope: source.scope, id: source.id },
      }),

    search: async (body: SearchRequest) =>
      request(SearchResponse, 'POST', '/memory/search', { body: SearchRequest.parse(body) }),
    context: async (agentId: string, message: string) =>
      request(ContextResponse, 'POST', '/memory/context', {
        body: { agent_id: agentId, message },
      }),

    consolidate: async (agentId?: string) =>
      request(ConsolidateResponse, 'POST', '/memory/consolidate', {
        body: agentId ? { agent_id: agentId } : {},
      }),
    /** What a run would change, per step; changes nothing. */
    consolidateDryRun: async (agentId?: string) =>
      request(ConsolidationDryRun, 'POST', '/memory/consolidate', {
        body: agentId ? { agent_id: agentId, dry_run: true } : { dry_run: true },
      }),
    consolidationRuns: async () =>
      request(ConsolidationRunsResponse, 'GET', '/memory/consolidation/runs'),

    listPinned: async (q: PinnedListParams) =>
      request(PinnedListResponse, 'GET', '/memory/pinned', { query: { ...q } }),
    createPinned: async (body: z.input<typeof PinnedCreate>) =>
      request(PinnedFact, 'POST', '/memory/pinned', { body: PinnedCreate.parse(body) }),
    getPinned: async (id: number, agentId: string) =>
      request(PinnedFact, 'GET', `/memory/pinned/${id}`, { query: { agent_id: agentId } }),
    patchPinned: async (id: number, agentId: string, patch: z.input<typeof PinnedPatch>) =>
      request(PinnedFact, 'PATCH', `/memory/pinned/${id}`, {
        query: { agent_id: agentId },
        body: PinnedPatch.parse(patch),
      }),
    deletePinned: async (id: number, agentId: string, options: { withSources?: boolean } = {}) =>
      request(ForgetResponse, 'DELETE', `/memory/pinned/${id}`, {
        query: {
          agent_id: agentId,
          ...(options.withSources ? { with_sources: 'true' } : {}),
        },
      }),

    /** The messages a fact came from (what "forget with its sources" deletes too). */
    factSources: async (id: number, agentId: string) =>
      request(FactSourcesResponse, 'GET', `/memory/pinned/${id}/sources`, {
        query: { agent_id: agentId },
      }),

    listEpisodes: async (q: EpisodeListParams) =>
      request(EpisodeListResponse, 'GET', '/memory/episodes', { query: { ...q } }),
    patchEpisode: async (id: number, agentId: string, patch: z.input<typeof EpisodePatch>) =>
      request(Episode, 'PATCH', `/memory/episodes/${id}`, {
        query: { agent_id: agentId },
        body: EpisodePatch.parse(patch),
      }),
    deleteEpisode: async (id: number, agentId: string) =>
      request(ForgetResponse, 'DELETE', `/memory/episodes/${id}`, {
        query: { agent_id: agentId },
      }),

    getIdentity: async (agentId: string) =>
      request(Identity, 'GET', '/memory/identity', { query: { agent_id: agentId } }),
    putIdentity: async (body: z.input<typeof IdentityPut>) =>
      request(Identity, 'PUT', '/memory/identity', {
        query: { agent_id: body.agent_id },
        body: IdentityPut.parse(body),
      }),

    listTranscript: async (q: TranscriptListParams) =>
      request(TranscriptListResponse, 'GET', '/memory/transcript', { query: { ...q } }),
    deleteTranscript: async (id: number, agentId: string) =>
      request(ForgetResponse, 'DELETE', `/memory/transcript/${id}`, {
        query: { agent_id: agentId },
      }),

    ingest: async (body: z.input<typeof IngestRequest>) =>
      request(IngestResponse, 'POST', '/memory/ingest', { body: IngestRequest.parse(body) }),
    /** `GET /memory/export`: Cairn's JSON export of every agent. */
    exportMemory: async () => request(MemoryExport, 'GET', '/memory/export'),
    /** `POST /memory/import`: a ChatGPT, Claude, Open WebUI or Cairn export into one agent. */
    importMemory: async (body: z.input<typeof MemoryImportRequest>) =>
      request(MemoryImportResponse, 'POST', '/memory/import', {
        body: MemoryImportRequest.parse(body),
      }),

    stats: async () => request(StatsResponse, 'GET', '/memory/stats'),
    diagnostics: async () => request(DiagnosticsResponse, 'GET', '/memory/diagnostics'),
    retryDeadLetter: async (id: number) =>
      request(RetryDeadLetterResponse, 'POST', `/memory/diagnostics/retry/${id}`, { body: {} }),
    retryEmbedder: async () =>
      request(EmbedderStateSchema, 'POST', '/memory/embedder/retry', { body: {} }),

    getSettings: async () => request(PublicSettings, 'GET', '/settings'),
    putSettings: async (patch: SettingsPatch) => {
      // Validate, but send only the keys given: zod 4 fills defaults into Settings.partial().
      SettingsPatch.parse(patch);
      return request(PublicSettings, 'PUT', '/settings', { body: patch });
    },

    recoveryKey: async () => request(RecoveryKeyResponse, 'GET', '/memory/recovery-key'),

    /** `GET /memory/backup`: the encrypted copy of the database, as bytes. */
    backup: async (): Promise<Blob> => (await send('GET', '/memory/backup', {})).blob(),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
