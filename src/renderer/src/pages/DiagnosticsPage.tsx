import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { EmbedderStateDto, PendingSignal } from '../../../shared/api.ts';
import { useApi } from '../api/ApiContext.tsx';
import { qk } from '../api/keys.ts';
import { EmbedderStatus } from '../components/EmbedderStatus.tsx';
import {
  Badge,
  Card,
  DataTable,
  EmptyState,
  ErrorBox,
  Loading,
  PageHeader,
  type Column,
} from '../components/ui.tsx';
import { formatBytes, formatDate } from '../format.ts';

const LOG_COLUMNS: Column[] = [
  'When',
  'Job',
  'Agent',
  'Status',
  'Model',
  { label: 'Tokens', num: true },
  { label: 'Duration', num: true },
  'Error',
];
const SIGNAL_COLUMNS: Column[] = [
  'Agent',
  'Conversation',
  'Status',
  { label: 'Attempts', num: true },
  'Last error',
  'Updated',
];

export function DiagnosticsPage() {
  const api = useApi();
  const queryClient = useQueryClient();
  const diag = useQuery({
    queryKey: qk.diagnostics,
    queryFn: () => api.diagnostics(),
    refetchInterval: 5000,
  });
  const retry = useMutation({
    mutationFn: (id: number) => api.retryDeadLetter(id),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: qk.diagnostics }),
  });
  const retryModel = useMutation({
    mutationFn: () => api.retryEmbedder(),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: qk.diagnostics }),
  });
  const d = diag.data;
  return (
    <div className="page">
      <PageHeader title="Diagnostics">
        <button type="button" className="btn" onClick={() => void diag.refetch()}>
          Refresh
        </button>
      </PageHeader>
      <ErrorBox error={diag.error} />
      {diag.isPending ? <Loading /> : null}
      {d ? (
        <>
          <div className="grid grid-2">
            <Card title="Database">
              <dl className="kv">
                <dt>Size</dt>
                <dd>{formatBytes(d.db_size_bytes)}</dd>
                <dt>Write-ahead log</dt>
                <dd>{formatBytes(d.wal_size_bytes)}</dd>
                <dt>Pending signals</dt>
                <dd>{d.pending.length}</dd>
                <dt>Dead letters</dt>
                <dd>
                  {d.dead_letters.length > 0 ? (
                    <Badge tone="error">{d.dead_letters.length}</Badge>
                  ) : (
                    0
                  )}
                </dd>
              </dl>
            </Card>
            <Card title="Embedding model">
              <EmbedderStatus state={d.embedder} />
              <EmbedderFallback
                state={d.embedder}
                onRetry={() => retryModel.mutate()}
                retrying={retryModel.isPending}
              />
              <ErrorBox error={retryModel.error} title="Retry failed" />
            </Card>
          </div>

          <Card title="Dead letters">
            <p className="muted">
              Conversations whose distillation failed three times. Their transcript is kept; retry
              once the Core Model is reachable.
            </p>
            <ErrorBox error={retry.error} title="Retry failed" />
            <SignalTable
              signals={d.dead_letters}
              empty="No dead letters."
              label="Dead letters"
              onRetry={(id) => retry.mutate(id)}
              retrying={retry.isPending ? retry.variables : undefined}
            />
          </Card>

          <Card title="Pending signals">
            <SignalTable
              signals={d.pending}
              empty="Nothing awaits distillation."
              label="Pending signals"
            />
          </Card>

          <Card title="Processing log">
            {d.processing_log.length === 0 ? (
              <EmptyState>No job has run yet.</EmptyState>
            ) : (
              <DataTable caption="Processing log" columns={LOG_COLUMNS}>
                {d.processing_log.map((e) => (
                  <tr key={e.id}>
                    <td>{formatDate(e.created_at)}</td>
                    <td>{e.kind}</td>
                    <td>{e.agent_id ?? '—'}</td>
                    <td>
                      <Badge
                        tone={
                          e.status === 'ok' ? 'ok' : e.status === 'skipped' ? 'neutral' : 'error'
                        }
                      >
                        {e.status}
                      </Badge>
                    </td>
                    <td>{e.model ?? '—'}</td>
                    <td className="num">{e.tokens ?? '—'}</td>
                    <td className="num">{e.duration_ms} ms</td>
                    <td className="text-error">{e.error ?? ''}</td>
                  </tr>
                ))}
              </DataTable>
            )}
          </Card>
        </>
      ) : null}
    </div>
  );
}

function SignalTable({
  signals,
  empty,
  label,
  onRetry,
  retrying,
}: {
  signals: PendingSignal[];
  empty: string;
  label: string;
  onRetry?: (id: number) => void;
  retrying?: number;
}) {
  if (signals.length === 0) return <EmptyState>{empty}</EmptyState>;
  return (
    <DataTable
      caption={label}
      columns={onRetry ? [...SIGNAL_COLUMNS, { label: 'Actions', hidden: true }] : SIGNAL_COLUMNS}
    >
      {signals.map((s) => (
        <tr key={s.id}>
          <td>{s.agent_id}</td>
          <td>
            <code>{s.conversation_id.slice(0, 24)}</code>
          </td>
          <td>{s.status}</td>
          <td className="num">{s.attempts}</td>
          <td className="text-error">{s.last_error ?? ''}</td>
          <td>{formatDate(s.updated_at)}</td>
          {onRetry ? (
            <td>
              <button
                type="button"
                className="btn btn-small"
                disabled={retrying === s.id}
                onClick={() => onRetry(s.id)}
              >
                Retry
              </button>
            </td>
          ) : null}
        </tr>
      ))}
    </DataTable>
  );
}

const SEARCH_BY: Record<NonNullable<EmbedderStateDto['active']>, string> = {
  sentence_model: 'Sentence model',
  word_vectors: 'Word vectors (built in) until the model is ready',
  none: 'Keywords only',
};

/** Which embedder serves search, and a retry for a model that failed to load. */
function EmbedderFallback({
  state,
  onRetry,
  retrying,
}: {
  state: EmbedderStateDto;
  onRetry: () => void;
  retrying: boolean;
}) {
  const nextAt = state.retry?.nextAt ?? null;
  return (
    <dl className="kv">
      {state.active ? (
        <>
          <dt>Search by meaning</dt>
          <dd>{SEARCH_BY[state.active]}</dd>
        </>
      ) : null}
      {state.status === 'error' ? (
        <>
          <dt>Model download</dt>
          <dd>
            <button type="button" className="btn" onClick={onRetry} disabled={retrying}>
              {retrying ? 'Retrying…' : 'Retry download'}
            </button>
            {nextAt !== null ? (
              <p className="muted small">
                Next automatic attempt: {formatDate(new Date(nextAt).toISOString())}
              </p>
            ) : null}
          </dd>
        </>
      ) : null}
    </dl>
  );
}
