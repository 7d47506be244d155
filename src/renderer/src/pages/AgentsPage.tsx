import { useMutation, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useApi } from '../api/ApiContext.tsx';
import { qk } from '../api/keys.ts';
import { AgentControlsCard } from '../components/AgentControlsCard.tsx';
import { UndoNotice, type Undoable } from '../components/deletion.tsx';
import {
  Badge,
  Card,
  DataTable,
  EmptyState,
  ErrorBox,
  QueryBody,
  type Column,
} from '../components/ui.tsx';
import { formatDate, formatRelative } from '../format.ts';
import { routeHref, type Route } from '../router.ts';

const AGENT_COLUMNS: Column[] = [
  'Agent',
  { label: 'Facts', num: true },
  { label: 'Episodes', num: true },
  { label: 'Messages', num: true },
  { label: 'Pending', num: true },
  'Last activity',
];

export function AgentsPage({
  route,
  navigate,
}: {
  route: Route;
  navigate: (page: 'agents', params: Record<string, string>) => void;
}) {
  const api = useApi();
  const agents = useQuery({ queryKey: qk.agents, queryFn: () => api.agents() });
  const selected = route.params.get('agent') ?? '';
  const [undo, setUndo] = useState<Undoable | null>(null);
  const selectedAgent = agents.data?.agents.find((a) => a.id === selected);

  return (
    <div className="page">
      <h1>Agents</h1>
      {undo ? <UndoNotice key={undo.trashId} undo={undo} /> : null}
      <ErrorBox error={agents.error} />
      <Card>
        <QueryBody
          query={agents}
          isEmpty={(d) => d.agents.length === 0}
          empty={
            <>
              No agent has talked through Cairn yet. Send a request with the{' '}
              <code>X-Osaurus-Agent-Id</code> header (see <a href="#/overview">Overview</a>).
            </>
          }
        >
          {(d) => (
            <DataTable caption="Agents and their memory" columns={AGENT_COLUMNS}>
              {d.agents.map((a) => (
                <tr
                  key={a.id}
                  aria-selected={a.id === selected}
                  className={a.id === selected ? 'selected' : ''}
                >
                  <th scope="row">
                    <button
                      type="button"
                      className="link-button"
                      onClick={() => navigate('agents', { agent: a.id })}
                    >
                      {a.id}
                    </button>
                    {a.display_name ? <span className="muted"> ({a.display_name})</span> : null}
                    {a.paused ? (
                      <>
                        {' '}
                        <Badge tone="warn">Memory paused</Badge>
                      </>
                    ) : null}
                    <br />
                    <a className="small" href={routeHref('memory', { agent: a.id })}>
                      Browse memory
                    </a>
                  </th>
                  <td className="num">{a.pinned_count}</td>
                  <td className="num">{a.episode_count}</td>
                  <td className="num">{a.transcript_count}</td>
                  <td className="num">
                    {a.pending_count > 0 ? <Badge tone="warn">{a.pending_count}</Badge> : 0}
                  </td>
                  <td title={formatDate(a.last_activity_at)}>
                    {formatRelative(a.last_activity_at)}
                  </td>
                </tr>
              ))}
            </DataTable>
          )}
        </QueryBody>
      </Card>
      {selectedAgent ? (
        <AgentControlsCard
          key={`controls:${selectedAgent.id}`}
          agent={selectedAgent}
          onDeleted={(next) => {
            setUndo(next);
            navigate('agents', {});
          }}
        />
      ) : null}
      {selected ? <ContextPreview agentId={selected} key={selected} /> : null}
    </div>
  );
}

function ContextPreview({ agentId }: { agentId: string }) {
  const api = useApi();
  const id = useId();
  const [message, setMessage] = useState('');
  const preview = useMutation({ mutationFn: (m: string) => api.context(agentId, m) });
  return (
    <Card title={`What ${agentId} would remember`}>
      <div className="stack">
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            if (message.trim()) preview.mutate(message);
          }}
        >
          <div className="field">
            <label htmlFor={id}>Message</label>
            <textarea
              id={id}
              rows={3}
              value={message}
              placeholder="Type a message as the user would send it…"
              onChange={(e) => setMessage(e.target.value)}
            />
          </div>
          <div>
            <button
              type="submit"
              className="btn btn-primary"
              disabled={!message.trim() || preview.isPending}
            >
              Preview memory
            </button>
          </div>
        </form>
        <ErrorBox error={preview.error} />
        {preview.data ? (
          <div className="stack" aria-live="polite">
            <p>
              Section: <Badge tone="accent">{preview.data.section}</Badge>{' '}
              <span className="muted">{preview.data.tokens} tokens</span>
            </p>
            {preview.data.block ? (
              <pre className="code" data-testid="context-block" tabIndex={0}>
                {preview.data.block}
              </pre>
            ) : (
              <EmptyState>Nothing would be injected for this message.</EmptyState>
            )}
          </div>
        ) : null}
      </div>
    </Card>
  );
}
