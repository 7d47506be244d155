// One agent's own controls (issue 12): a display name, memory paused for it alone, and its
// token budget and retention, each empty = the global setting (shown as such). Deleting the
// agent moves all it remembers to the trash, after a confirmation that says what and for how
// long it can be restored.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { AgentControlsPatch, type AgentControls, type AgentSummary } from '../../../shared/api.ts';
import { useApi } from '../api/ApiContext.tsx';
import { qk } from '../api/keys.ts';
import { plural } from '../format.ts';
import {
  ConfirmAction,
  useAfterDeletion,
  useConfirmed,
  useTrashDays,
  type Undoable,
} from './deletion.tsx';
import { Card, CheckField, ErrorBox, Field, Loading, Notice } from './ui.tsx';

type NumberControl =
  'memory_budget_tokens' | 'episode_retention_days' | 'transcript_retention_days';

const NUMBER_CONTROLS: {
  key: NumberControl;
  label: string;
  range: string;
  global: 'memoryBudgetTokens' | 'episodeRetentionDays' | 'transcriptRetentionDays';
  unit: string;
}[] = [
  {
    key: 'memory_budget_tokens',
    label: 'Memory budget (tokens)',
    range: '100–4000',
    global: 'memoryBudgetTokens',
    unit: 'tokens',
  },
  {
    key: 'episode_retention_days',
    label: 'Keep episodes (days)',
    range: '0–3650, 0 keeps everything',
    global: 'episodeRetentionDays',
    unit: 'days',
  },
  {
    key: 'transcript_retention_days',
    label: 'Keep the transcript (days)',
    range: '0–3650, 0 keeps everything',
    global: 'transcriptRetentionDays',
    unit: 'days',
  },
];

interface Draft {
  display_name: string;
  paused: boolean;
  numbers: Record<NumberControl, string>;
}

const toDraft = (c: AgentControls): Draft => ({
  display_name: c.display_name ?? '',
  paused: c.paused,
  numbers: {
    memory_budget_tokens: c.memory_budget_tokens === null ? '' : String(c.memory_budget_tokens),
    episode_retention_days:
      c.episode_retention_days === null ? '' : String(c.episode_retention_days),
    transcript_retention_days:
      c.transcript_retention_days === null ? '' : String(c.transcript_retention_days),
  },
});

/** The changed controls (empty number = null = the global setting), or errors by field. */
export function controlsPatch(
  saved: AgentControls,
  draft: Draft,
): { patch: AgentControlsPatch; errors: Partial<Record<keyof AgentControls, string>> } {
  const next: AgentControls = {
    display_name: draft.display_name.trim() === '' ? null : draft.display_name.trim(),
    paused: draft.paused,
    memory_budget_tokens: null,
    episode_retention_days: null,
    transcript_retention_days: null,
  };
  for (const f of NUMBER_CONTROLS) {
    const text = draft.numbers[f.key].trim();
    next[f.key] = text === '' ? null : Number(text);
  }
  const patch: Record<string, unknown> = {};
  for (const key of Object.keys(next) as (keyof AgentControls)[]) {
    if (next[key] !== saved[key]) patch[key] = next[key];
  }
  const errors: Partial<Record<keyof AgentControls, string>> = {};
  const parsed = AgentControlsPatch.safeParse(patch);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = issue.path[0] as keyof AgentControls;
      const field = NUMBER_CONTROLS.find((f) => f.key === key);
      errors[key] = field
        ? `${field.label} must be a whole number in ${field.range}, or empty for the global setting.`
        : 'The display name is at most 100 characters.';
    }
  }
  return { patch: patch as AgentControlsPatch, errors };
}

export function AgentControlsCard({
  agent,
  onDeleted,
}: {
  agent: AgentSummary;
  onDeleted: (undo: Undoable) => void;
}) {
  const api = useApi();
  const detail = useQuery({
    queryKey: qk.agent(agent.id),
    queryFn: () => api.getAgent(agent.id),
  });
  return (
    <Card title={`Controls of ${agent.display_name ?? agent.id}`}>
      <ErrorBox error={detail.error} />
      {detail.data ? (
        <ControlsForm agent={agent} saved={detail.data.controls} />
      ) : detail.isPending ? (
        <Loading />
      ) : null}
      <DeleteAgent agent={agent} onDeleted={onDeleted} />
    </Card>
  );
}

function ControlsForm({ agent, saved }: { agent: AgentSummary; saved: AgentControls }) {
  const api = useApi();
  const id = useId();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: qk.settings, queryFn: () => api.getSettings() });
  const [draft, setDraft] = useState<Draft>(() => toDraft(saved));
  const [errors, setErrors] = useState<Partial<Record<keyof AgentControls, string>>>({});
  const [done, setDone] = useState(false);
  const save = useMutation({
    mutationFn: (patch: AgentControlsPatch) => api.patchAgent(agent.id, patch),
    onSuccess: (res) => {
      queryClient.setQueryData(qk.agent(agent.id), { agent, controls: res.controls });
      void queryClient.invalidateQueries({ queryKey: qk.agents });
      setDraft(toDraft(res.controls));
      setDone(true);
    },
  });
  const change = (next: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...next }));
    setDone(false);
  };
  return (
    <form
      className="stack"
      aria-label={`Controls of ${agent.id}`}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const { patch, errors: errs } = controlsPatch(saved, draft);
        setErrors(errs);
        setDone(false);
        if (Object.keys(errs).length > 0) return;
        if (Object.keys(patch).length === 0) {
          setDone(true);
          return;
        }
        save.mutate(patch);
      }}
    >
      <div className="grid grid-2">
        <Field
          id={`${id}-name`}
          label="Display name"
          error={errors.display_name}
          helpClassName="muted small"
          help={
            <>
              Clients keep sending <code>{agent.id}</code>; only the UI shows this name.
            </>
          }
        >
          {(control) => (
            <input
              {...control}
              value={draft.display_name}
              placeholder={agent.id}
              onChange={(e) => change({ display_name: e.target.value })}
            />
          )}
        </Field>
        {NUMBER_CONTROLS.map((f) => {
          const global = settings.data?.[f.global];
          return (
            <Field
              key={f.key}
              id={`${id}-${f.key}`}
              label={f.label}
              error={errors[f.key]}
              helpClassName="muted small"
              help={
                <>
                  Empty: the global setting
                  {global === undefined
                    ? ''
                    : ` (${global === 0 && f.unit === 'days' ? 'keep everything' : `${global} ${f.unit}`})`}
                  . {f.range}.
                </>
              }
            >
              {(control) => (
                <input
                  {...control}
                  type="number"
                  inputMode="numeric"
                  value={draft.numbers[f.key]}
                  placeholder={global === undefined ? 'global setting' : `global: ${global}`}
                  onChange={(e) =>
                    change({ numbers: { ...draft.numbers, [f.key]: e.target.value } })
                  }
                />
              )}
            </Field>
          );
        })}
      </div>
      <CheckField
        id={`${id}-paused`}
        label="Pause memory for this agent (its requests pass through without memory)"
        checked={draft.paused}
        onChange={(paused) => change({ paused })}
      />
      <ErrorBox error={save.error} />
      {done ? <Notice tone="ok">Controls saved.</Notice> : null}
      <div>
        <button type="submit" className="btn btn-primary" disabled={save.isPending}>
          Save controls
        </button>
      </div>
    </form>
  );
}

function DeleteAgent({
  agent,
  onDeleted,
}: {
  agent: AgentSummary;
  onDeleted: (undo: Undoable) => void;
}) {
  const api = useApi();
  const trashDays = useTrashDays();
  const afterDeletion = useAfterDeletion();
  const remove = useConfirmed(
    (a: AgentSummary) => api.deleteAgent(a.id),
    (res, a) => {
      afterDeletion(a.id);
      onDeleted({
        message: `Deleted the agent ${a.id} (restorable from the Trash for ${plural(trashDays, 'day')}).`,
        trashId: res.trash_id,
        agentId: a.id,
      });
    },
  );
  return (
    <div className="danger-zone">
      <button type="button" className="btn btn-danger-outline" onClick={() => remove.ask(agent)}>
        Delete agent
      </button>
      <ConfirmAction
        action={remove}
        title={(a) => `Delete the agent ${a.id}?`}
        confirmLabel="Delete agent"
      >
        {(a) => (
          <>
            <p>
              Everything Cairn remembers for <strong>{a.display_name ?? a.id}</strong>:{' '}
              {plural(a.pinned_count, 'fact')}, {plural(a.episode_count, 'episode')},{' '}
              {plural(a.transcript_count, 'message')}, its identity and its controls.
            </p>
            <p className="muted">
              It all goes to the trash as one entry: you can restore it from the Trash page for{' '}
              {plural(trashDays, 'day')}, after which it is deleted for good.
            </p>
          </>
        )}
      </ConfirmAction>
    </div>
  );
}
