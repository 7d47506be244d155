import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { Identity } from '../../../shared/api.ts';
import { useApi } from '../api/ApiContext.tsx';
import { qk } from '../api/keys.ts';
import { formatDate } from '../format.ts';
import { ErrorBox, Field, Loading, Notice, TextArea } from './ui.tsx';

export function IdentityEditor({ agentId }: { agentId: string }) {
  const api = useApi();
  const identity = useQuery({
    queryKey: qk.identity(agentId),
    queryFn: () => api.getIdentity(agentId),
  });
  if (identity.isPending) return <Loading />;
  if (identity.error) return <ErrorBox error={identity.error} />;
  return <IdentityForm identity={identity.data} />;
}

function IdentityForm({ identity }: { identity: Identity }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const id = useId();
  const [narrative, setNarrative] = useState(identity.narrative);
  const [overrides, setOverrides] = useState(identity.overrides.join('\n'));
  const save = useMutation({
    mutationFn: () =>
      api.putIdentity({
        agent_id: identity.agent_id,
        narrative,
        overrides: overrides
          .split('\n')
          .map((l) => l.trim())
          .filter(Boolean),
      }),
    onSuccess: (next) => {
      queryClient.setQueryData(qk.identity(identity.agent_id), next);
    },
  });
  return (
    <form
      className="stack"
      aria-label="Identity"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <p className="muted">
        Identity is always injected: who the user is and how the agent should behave. Keep it short.
        Last changed {formatDate(identity.updated_at)}.
      </p>
      <Field id={`${id}-narrative`} label="Narrative">
        {(control) => <TextArea {...control} rows={5} value={narrative} onChange={setNarrative} />}
      </Field>
      <Field id={`${id}-overrides`} label="Always-on facts (one per line)">
        {(control) => <TextArea {...control} rows={6} value={overrides} onChange={setOverrides} />}
      </Field>
      <ErrorBox error={save.error} />
      {save.isSuccess ? <Notice tone="ok">Identity saved.</Notice> : null}
      <div>
        <button type="submit" className="btn btn-primary" disabled={save.isPending}>
          Save identity
        </button>
      </div>
    </form>
  );
}
