// The pinned facts of one agent: filter, sort, paginate, edit, pin/unpin, disable, forget,
// add by hand. Every change goes through the API and refreshes this agent's memory queries.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import {
  PinnedListQuery,
  type PinnedFact,
  type PinnedSort,
  type PinnedStatusFilter,
} from '../../../shared/api.ts';
import { useApi } from '../api/ApiContext.tsx';
import { qk } from '../api/keys.ts';
import { formatDate, formatRelative, truncate } from '../format.ts';
import { routeHref } from '../router.ts';
import {
  ConfirmAction,
  SelectableList,
  SelectBox,
  useForget,
  useSelectableList,
} from './deletion.tsx';
import { FactEditor } from './FactEditor.tsx';
import { ListToolbar, useAfterEdit, usePagedQuery } from './PagedList.tsx';
import { Badge, DangerButton, ErrorBox, SelectField } from './ui.tsx';

const PAGE_SIZE = 20;

const STATUS_LABELS: Record<PinnedStatusFilter, string> = {
  all: 'All',
  active: 'Active',
  disabled: 'Disabled',
};
const SORT_LABELS: Record<PinnedSort, string> = {
  salience: 'Salience',
  created_at: 'Newest',
  last_used: 'Last used',
  use_count: 'Most used',
};

export function PinnedList({
  agentId,
  pageSize = PAGE_SIZE,
}: {
  agentId: string;
  pageSize?: number;
}) {
  const api = useApi();
  const id = useId();
  const state = useSelectableList();
  const { filter, selection, trashDays, setOutcome } = state;
  const [status, setStatus] = useState<PinnedStatusFilter>('all');
  const [sort, setSort] = useState<PinnedSort>('salience');
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<number | null>(null);
  const afterEdit = useAfterEdit();

  const query = {
    agent_id: agentId,
    status,
    sort,
    q: filter.words,
    limit: pageSize,
    offset: filter.offset,
  };
  const list = usePagedQuery(qk.pinned(agentId, query), () => api.listPinned(query));

  const patch = useMutation({
    mutationFn: (args: { id: number; patch: Parameters<typeof api.patchPinned>[2] }) =>
      api.patchPinned(args.id, agentId, args.patch),
    onSuccess: () => afterEdit(agentId),
  });
  const [withSources, setWithSources] = useState(false);
  const [showingSources, setShowingSources] = useState<number | null>(null);
  const forget = useForget(
    agentId,
    (fact: PinnedFact) => api.deletePinned(fact.id, agentId, { withSources }),
    (fact) => `Forgot “${truncate(fact.content, 60)}”.`,
    (undo) => setOutcome({ undo }),
  );
  /** A filter or order change goes back to the first page. */
  const refine =
    <V,>(set: (value: V) => void) =>
    (value: V) => {
      set(value);
      filter.firstPage();
    };
  const sources = useQuery({
    queryKey: ['fact-sources', agentId, forget.item?.id ?? null],
    queryFn: () => api.factSources(forget.item!.id, agentId),
    enabled: forget.item !== null,
  });

  return (
    <div className="stack">
      <ListToolbar filter={filter} placeholder="Words in the fact…">
        <SelectField
          id={`${id}-status`}
          label="Status"
          inline
          value={status}
          schema={PinnedListQuery.shape.status}
          options={STATUS_LABELS}
          onChange={refine(setStatus)}
        />
        <SelectField
          id={`${id}-sort`}
          label="Sort by"
          inline
          value={sort}
          schema={PinnedListQuery.shape.sort}
          options={SORT_LABELS}
          onChange={refine(setSort)}
        />
        <button
          type="button"
          className="btn btn-primary"
          aria-expanded={adding}
          onClick={() => setAdding((a) => !a)}
        >
          Add fact
        </button>
      </ListToolbar>

      {adding ? (
        <div className="panel">
          <FactEditor
            title="New fact"
            submitLabel="Add fact"
            onCancel={() => setAdding(false)}
            onSubmit={async (draft) => {
              await api.createPinned({ agent_id: agentId, ...draft });
              setAdding(false);
              setOutcome({ notice: 'Fact added.' });
              afterEdit(agentId);
            }}
          />
        </div>
      ) : null}

      <SelectableList
        agentId={agentId}
        kind="pinned"
        noun="fact"
        list={list}
        state={state}
        error={patch.error}
        label="Pinned facts"
        empty={
          filter.words || status !== 'all'
            ? 'No fact matches these filters.'
            : 'No pinned facts yet.'
        }
        limit={pageSize}
      >
        {(fact) => (
          <li key={fact.id} className={`item ${fact.status === 'disabled' ? 'item-disabled' : ''}`}>
            {editing === fact.id ? (
              <FactEditor
                title="Edit fact"
                submitLabel="Save"
                initial={fact}
                onCancel={() => setEditing(null)}
                onSubmit={async (draft) => {
                  await patch.mutateAsync({ id: fact.id, patch: draft });
                  setEditing(null);
                  setOutcome({ notice: 'Fact saved.' });
                }}
              />
            ) : (
              <>
                <div className="item-head">
                  <SelectBox
                    selection={selection}
                    id={fact.id}
                    label={`Select “${truncate(fact.content, 60)}”`}
                  />
                  <p className="item-content">{fact.content}</p>
                </div>
                <div className="item-meta">
                  {fact.pinned_by_user ? <Badge tone="accent">Pinned</Badge> : null}
                  {fact.status === 'disabled' ? <Badge tone="warn">Disabled</Badge> : null}
                  <span title="Salience">salience {fact.salience.toFixed(2)}</span>
                  <span>used {fact.use_count}×</span>
                  <span title={formatDate(fact.last_used)}>
                    last used {formatRelative(fact.last_used)}
                  </span>
                  <span title={formatDate(fact.created_at)}>
                    added {formatRelative(fact.created_at)}
                  </span>
                  {fact.tags.map((t) => (
                    <Badge key={t}>{t}</Badge>
                  ))}
                </div>
                <div className="item-actions" role="group" aria-label="Fact actions">
                  <button
                    type="button"
                    className="btn btn-small"
                    onClick={() => setEditing(fact.id)}
                  >
                    Edit
                  </button>
                  <button
                    type="button"
                    className="btn btn-small"
                    aria-pressed={fact.pinned_by_user}
                    onClick={() =>
                      patch.mutate({
                        id: fact.id,
                        patch: { pinned_by_user: !fact.pinned_by_user },
                      })
                    }
                  >
                    {fact.pinned_by_user ? 'Unpin' : 'Pin'}
                  </button>
                  <button
                    type="button"
                    className="btn btn-small"
                    onClick={() =>
                      patch.mutate({
                        id: fact.id,
                        patch: { status: fact.status === 'active' ? 'disabled' : 'active' },
                      })
                    }
                  >
                    {fact.status === 'active' ? 'Disable' : 'Enable'}
                  </button>
                  <button
                    type="button"
                    className="btn btn-small"
                    aria-expanded={showingSources === fact.id}
                    onClick={() => setShowingSources(showingSources === fact.id ? null : fact.id)}
                  >
                    Sources
                  </button>
                  <DangerButton
                    onClick={() => {
                      setWithSources(false);
                      forget.ask(fact);
                    }}
                  >
                    Forget
                  </DangerButton>
                </div>
                {showingSources === fact.id ? (
                  <FactSources agentId={agentId} factId={fact.id} />
                ) : null}
              </>
            )}
          </li>
        )}
      </SelectableList>

      <ConfirmAction action={forget} title={() => 'Forget this fact?'} confirmLabel="Forget">
        {(fact) => (
          <>
            <p>“{fact.content}”</p>
            <p className="muted">
              It goes to the trash with its search index and vector, and its wording is kept out of
              every later memory block, also where a message or a conversation summary says the
              same. You can restore it from the Trash page for {trashDays} days.
            </p>
            {sources.data && sources.data.items.length > 0 ? (
              <fieldset className="fact-sources">
                <legend>Where it came from</legend>
                <ul>
                  {sources.data.items.map((m) => (
                    <li key={m.id}>
                      <span className="muted">{m.role}:</span> {truncate(m.content, 120)}
                    </li>
                  ))}
                </ul>
                <label>
                  <input
                    type="checkbox"
                    checked={withSources}
                    onChange={(e) => setWithSources(e.target.checked)}
                  />{' '}
                  Also delete{' '}
                  {sources.data.items.length === 1
                    ? 'this message'
                    : `these ${sources.data.items.length} messages`}
                </label>
              </fieldset>
            ) : null}
          </>
        )}
      </ConfirmAction>
    </div>
  );
}

/** The messages a fact came from, each linked to its conversation in the Memory page. */
function FactSources({ agentId, factId }: { agentId: string; factId: number }) {
  const api = useApi();
  const sources = useQuery({
    queryKey: ['fact-sources', agentId, factId],
    queryFn: () => api.factSources(factId, agentId),
  });
  if (sources.isPending) return <p className="small muted">Looking for its sources…</p>;
  if (sources.error) return <ErrorBox error={sources.error} />;
  if (sources.data.items.length === 0) {
    return <p className="small muted">No stored message states it (added by hand, or deleted).</p>;
  }
  return (
    <ul className="fact-sources" aria-label="Where this fact came from">
      {sources.data.items.map((m) => (
        <li key={m.id}>
          <span className="muted">{m.role}:</span> {truncate(m.content, 160)}{' '}
          <a
            href={routeHref('memory', {
              agent: agentId,
              tab: 'transcript',
              conversation: m.conversation_id,
            })}
          >
            Open the conversation
          </a>
        </li>
      ))}
    </ul>
  );
}
