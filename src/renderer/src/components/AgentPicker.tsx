import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useApi } from '../api/ApiContext.tsx';
import { qk } from '../api/keys.ts';
import { ErrorBox } from './ui.tsx';

/** Choose one of the agents the server knows (from `GET /agents`). */
export function AgentPicker({
  value,
  onChange,
  label = 'Agent',
  allowAll,
}: {
  value: string;
  onChange: (agentId: string) => void;
  label?: string;
  /** Offer an "All agents" entry with the value ''. */
  allowAll?: boolean;
}) {
  const api = useApi();
  const id = useId();
  const agents = useQuery({ queryKey: qk.agents, queryFn: () => api.agents() });
  const ids = agents.data?.agents.map((a) => a.id) ?? [];
  if (value && !ids.includes(value)) ids.unshift(value);
  return (
    <div className="field field-inline">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        {allowAll ? <option value="">All agents</option> : null}
        {!allowAll && !value ? <option value="">Choose an agent…</option> : null}
        {ids.map((a) => (
          <option key={a} value={a}>
            {a}
          </option>
        ))}
      </select>
      <ErrorBox error={agents.error} />
    </div>
  );
}
