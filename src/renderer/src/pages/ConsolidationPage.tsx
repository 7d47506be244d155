import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type {
  ConsolidationCounts,
  ConsolidationDryRun,
  ConsolidationRun,
} from '../../../shared/api.ts';
import { useApi } from '../api/ApiContext.tsx';
import { qk } from '../api/keys.ts';
import { AgentPicker } from '../components/AgentPicker.tsx';
import { MemoryChart } from '../components/MemoryChart.tsx';
import { useTrashDays } from '../components/deletion.tsx';
import {
  Badge,
  Card,
  ConfirmDialog,
  DataTable,
  ErrorBox,
  QueryBody,
  type Column,
} from '../components/ui.tsx';
import { formatDate } from '../format.ts';

const STEPS: { key: keyof ConsolidationCounts; label: string; help: string }[] = [
  { key: 'decayed', label: 'Decayed', help: 'salience lowered with age' },
  { key: 'merged', label: 'Merged', help: 'near-duplicate episodes combined' },
  { key: 'promoted', label: 'Promoted', help: 'facts seen in several recent episodes' },
  { key: 'evicted', label: 'Evicted', help: 'weak facts unused for 30+ days' },
  { key: 'pruned_episodes', label: 'Pruned episodes', help: 'older than the retention period' },
  { key: 'pruned_transcript', label: 'Pruned messages', help: 'older than the retention period' },
];

const RUN_COLUMNS: Column[] = [
  'Started',
  'Trigger',
  'Scope',
  'Status',
  ...STEPS.map((s) => ({ label: s.label, num: true })),
];

export function ConsolidationPage() {
  const api = useApi();
  const queryClient = useQueryClient();
  const [agent, setAgent] = useState('');
  const [preview, setPreview] = useState<ConsolidationDryRun | null>(null);
  const trashDays = useTrashDays();
  const runs = useQuery({ queryKey: qk.runs, queryFn: () => api.consolidationRuns() });
  const stats = useQuery({ queryKey: qk.stats, queryFn: () => api.stats() });
  // Run Now first asks what a run would change (nothing is changed), shows it, and runs only
  // once the user confirms.
  const dryRun = useMutation({
    mutationFn: () => api.consolidateDryRun(agent || undefined),
    onSuccess: setPreview,
  });
  const run = useMutation({
    mutationFn: () => api.consolidate(preview?.agent_id ?? (agent || undefined)),
    onSuccess: () => setPreview(null),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: qk.runs });
      void queryClient.invalidateQueries({ queryKey: qk.stats });
      void queryClient.invalidateQueries({ queryKey: ['memory'] });
      void queryClient.invalidateQueries({ queryKey: qk.agents });
    },
  });

  return (
    <div className="page">
      <h1>Consolidation</h1>
      <Card title="Run now">
        <p className="muted">
          Consolidation runs on its own every few hours (see Settings). It decays old memories,
          merges duplicates, promotes recurring facts, evicts weak ones and prunes what is past
          retention.
        </p>
        <div className="toolbar">
          <AgentPicker value={agent} onChange={setAgent} label="Scope" allowAll />
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => {
              run.reset();
              dryRun.mutate();
            }}
            disabled={run.isPending || dryRun.isPending}
          >
            {run.isPending ? 'Running…' : dryRun.isPending ? 'Checking…' : 'Run Consolidation Now'}
          </button>
        </div>
        <ErrorBox error={dryRun.error} />
        <ErrorBox error={run.error} />
        {run.data ? <RunReport run={run.data} /> : null}
      </Card>

      {preview ? (
        <ConfirmDialog
          title="Run consolidation now?"
          confirmLabel="Run now"
          danger={false}
          busy={run.isPending}
          onCancel={() => setPreview(null)}
          onConfirm={() => run.mutate()}
        >
          <DryRunReport preview={preview} trashDays={trashDays} />
          <ErrorBox error={run.error} />
        </ConfirmDialog>
      ) : null}

      <Card title="Memory over time">
        {stats.data ? (
          <MemoryChart history={stats.data.history} />
        ) : (
          <ErrorBox error={stats.error} />
        )}
      </Card>

      <Card title="History">
        <ErrorBox error={runs.error} />
        <QueryBody
          query={runs}
          isEmpty={(d) => d.runs.length === 0}
          empty="No consolidation has run yet."
        >
          {(d) => (
            <DataTable caption="Consolidation runs" columns={RUN_COLUMNS}>
              {d.runs.map((r) => (
                <tr key={r.id}>
                  <td>{formatDate(r.started_at)}</td>
                  <td>{r.trigger === 'manual' ? 'Manual' : 'Timer'}</td>
                  <td>{r.agent_id ?? 'All agents'}</td>
                  <td>
                    <RunStatus run={r} />
                  </td>
                  {STEPS.map((s) => (
                    <td key={s.key} className="num">
                      {r.counts[s.key]}
                    </td>
                  ))}
                </tr>
              ))}
            </DataTable>
          )}
        </QueryBody>
      </Card>
    </div>
  );
}

function RunStatus({ run }: { run: ConsolidationRun }) {
  if (run.status === 'ok') return <Badge tone="ok">OK</Badge>;
  if (run.status === 'running') return <Badge tone="warn">Running</Badge>;
  return (
    <span title={run.error ?? undefined}>
      <Badge tone="error">Error</Badge>
    </span>
  );
}

function RunReport({ run }: { run: ConsolidationRun }) {
  const total = STEPS.reduce((n, s) => n + run.counts[s.key], 0);
  return (
    <section className="report" aria-live="polite" aria-label="Consolidation report">
      <h3>
        Report <RunStatus run={run} />{' '}
        <span className="muted small">
          {formatDate(run.started_at)}
          {run.finished_at
            ? ` · ${Math.max(0, Date.parse(run.finished_at) - Date.parse(run.started_at))} ms`
            : ''}
        </span>
      </h3>
      {run.error ? <p className="text-error">{run.error}</p> : null}
      <dl className="report-grid">
        {STEPS.map((s) => (
          <div key={s.key} className="report-cell">
            <dt>{s.label}</dt>
            <dd data-testid={`report-${s.key}`}>{run.counts[s.key]}</dd>
            <dd className="muted small">{s.help}</dd>
          </div>
        ))}
      </dl>
      {total === 0 ? <p className="muted">Nothing needed changing.</p> : null}
    </section>
  );
}

/** What a run would change, per step (from the dry run). */
function DryRunReport({ preview, trashDays }: { preview: ConsolidationDryRun; trashDays: number }) {
  const total = STEPS.reduce((n, s) => n + preview.counts[s.key], 0);
  const removes =
    preview.counts.evicted + preview.counts.pruned_episodes + preview.counts.pruned_transcript;
  return (
    <section aria-label="What a run would change" className="stack">
      <p>For {preview.agent_id ?? 'all agents'}, a run now would change:</p>
      <dl className="report-grid">
        {STEPS.map((s) => (
          <div key={s.key} className="report-cell">
            <dt>{s.label}</dt>
            <dd data-testid={`dry-run-${s.key}`}>{preview.counts[s.key]}</dd>
            <dd className="muted small">{s.help}</dd>
          </div>
        ))}
      </dl>
      {total === 0 ? <p className="muted">Nothing needs changing.</p> : null}
      {removes > 0 ? (
        <p className="muted">
          What it evicts or prunes goes to the trash and can be restored for {trashDays} days.
        </p>
      ) : null}
    </section>
  );
}
