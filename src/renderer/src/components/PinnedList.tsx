// The pinned facts of one agent: filter, sort, paginate, edit, pin/unpin, disable, forget,
// add by hand. Every change goes through the API and refreshes this agent's memory queries.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import type { PinnedFact } from '../../../shared/api.ts';
import { useApi } from '../api/ApiContext.tsx';
import type { PinnedSort, PinnedStatusFilter } from '../api/client.ts';
import { qk } from '../api/keys.ts';
import { formatDate, formatRelative } from '../format.ts';
import { routeHref } from '../router.ts';
import {
  BulkDeleteBar,
  SelectBox,
  UndoNotice,
  useSelection,
  useTrashDays,
  type Undoable,
} from './deletion.tsx';
import { FactEditor } from './FactEditor.tsx';
import {
  Badge,
  ConfirmDialog,
  EmptyState,
  ErrorBox,
  FilterField,
  Loading,
  Notice,
  Pager,
} from './ui.tsx';

const PAGE_SIZE = 20;

export function PinnedList({
  agentId,
  pageSize = PAGE_SIZE,
}: {
  agentId: string;
  pageSize?: number;
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const id = useId();
  const [q, setQ] = useState('');
  const [debouncedQ, setDebouncedQ] = useState('');
  const [status, setStatus] = useState<PinnedStatusFilter>('all');
  const [sort, setSort] = useState<PinnedSort>('salience');
  const [offset, setOffset] = useState(0);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<number | null>(null);
  const [forgetting, setForgetting] = useState<PinnedFact | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [undo, setUndo] = useState<Undoable | null>(null);
  const selection = useSelection();
  const trashDays = useTrashDays();
  const showUndo = (next: Undoable) => {
    setNotice(null);
    setUndo(next);
  };
  const showNotice = (text: string) => {
    setUndo(null);
    setNotice(text);
  };

  useEffect(() => {
    const t = setTimeout(() => setDebouncedQ(q.trim()), 250);
    return () => clearTimeout(t);
  }, [q]);

  const query = { agent_id: agentId, status, sort, q: debouncedQ, limit: pageSize, offset };
  const list = useQuery({
    queryKey: qk.pinned(agentId, query),
    queryFn: () => api.listPinned(query),
    placeholderData: keepPreviousData,
  });

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: qk.memory(agentId) });
    void queryClient.invalidateQueries({ queryKey: qk.agents });
    void queryClient.invalidateQueries({ queryKey: qk.stats });
  };
  const patch = useMutation({
    mutationFn: (args: { id: number; patch: Parameters<typeof api.patchPinned>[2] }) =>
      api.patchPinned(args.id, agentId, args.patch),
    onSuccess: refresh,
  });
  const [withSources, setWithSources] = useState(false);
  const [showingSources, setShowingSources] = useState<number | null>(null);
  const sources = useQuery({
    queryKey: ['fact-sources', agentId, forgetting?.id ?? null],
    queryFn: () => api.factSources(forgetting!.id, agentId),
    enabled: forgetting !== null,
  });
  const forget = useMutation({
    mutationFn: (fact: PinnedFact) => api.deletePinned(fact.id, agentId, { withSources }),
    onSuccess: (res, fact) => {
      setForgetting(null);
      setWithSources(false);
      showUndo({
        message: `Forgot “${truncate(fact.content, 60)}”.`,
        trashId: res.trash_id,
        agentId,
      });
      refresh();
    },
  });

  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;

  return (
    <div className="stack">
      <div className="toolbar" role="search">
        <FilterField
          id={`${id}-q`}
          value={q}
          placeholder="Words in the fact…"
          onChange={(value) => {
            setQ(value);
            setOffset(0);
          }}
        />
        <div className="field field-inline">
          <label htmlFor={`${id}-status`}>Status</label>
          <select
            id={`${id}-status`}
            value={status}
            onChange={(e) => {
              setStatus(e.target.value as PinnedStatusFilter);
              setOffset(0);
            }}
          >
            <option value="all">All</option>
            <option value="active">Active</option>
            <option value="disabled">Disabled</option>
          </select>
        </div>
        <div className="field field-inline">
          <label htmlFor={`${id}-sort`}>Sort by</label>
          <select
            id={`${id}-sort`}
            value={sort}
            onChange={(e) => {
              setSort(e.target.value as PinnedSort);
              setOffset(0);
            }}
          >
            <option value="salience">Salience</option>
            <option value="created_at">Newest</option>
            <option value="last_used">Last used</option>
            <option value="use_count">Most used</option>
          </select>
        </div>
        <button
          type="button"
          className="btn btn-primary"
          aria-expanded={adding}
          onClick={() => setAdding((a) => !a)}
        >
          Add fact
        </button>
      </div>

      {adding ? (
        <div className="panel">
          <FactEditor
            title="New fact"
            submitLabel="Add fact"
            onCancel={() => setAdding(false)}
            onSubmit={async (draft) => {
              await api.createPinned({ agent_id: agentId, ...draft });
              setAdding(false);
              showNotice('Fact added.');
              refresh();
            }}
          />
        </div>
      ) : null}

      {notice ? <Notice tone="ok">{notice}</Notice> : null}
      {undo ? <UndoNotice key={undo.trashId} undo={undo} /> : null}
      <ErrorBox error={list.error} />
      <ErrorBox error={patch.error} />
      <BulkDeleteBar
        agentId={agentId}
        kind="pinned"
        noun="fact"
        visible={items.map((f) => f.id)}
        selection={selection}
        onDeleted={showUndo}
      />

      {list.isPending ? (
        <Loading />
      ) : items.length === 0 ? (
        <EmptyState>
          {debouncedQ || status !== 'all'
            ? 'No fact matches these filters.'
            : 'No pinned facts yet.'}
        </EmptyState>
      ) : (
        <ul className="item-list" aria-label="Pinned facts">
          {items.map((fact) => (
            <li
              key={fact.id}
              className={`item ${fact.status === 'disabled' ? 'item-disabled' : ''}`}
            >
              {editing === fact.id ? (
                <FactEditor
                  title="Edit fact"
                  submitLabel="Save"
                  initial={fact}
                  onCancel={() => setEditing(null)}
                  onSubmit={async (draft) => {
                    await patch.mutateAsync({ id: fact.id, patch: draft });
                    setEditing(null);
                    showNotice('Fact saved.');
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
                    <button
                      type="button"
                      className="btn btn-small btn-danger-outline"
                      onClick={() => setForgetting(fact)}
                    >
                      Forget
                    </button>
                  </div>
                  {showingSources === fact.id ? (
                    <FactSources agentId={agentId} factId={fact.id} />
                  ) : null}
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      <Pager
        total={total}
        limit={pageSize}
        offset={offset}
        onChange={setOffset}
        label="Pinned facts"
      />

      {forgetting ? (
        <ConfirmDialog
          title="Forget this fact?"
          confirmLabel="Forget"
          busy={forget.isPending}
          onCancel={() => {
            setForgetting(null);
            setWithSources(false);
          }}
          onConfirm={() => forget.mutate(forgetting)}
        >
          <p>“{forgetting.content}”</p>
          <p className="muted">
            It goes to the trash with its search index and vector, and its wording is kept out of
            every later memory block, also where a message or a conversation summary says the same.
            You can restore it from the Trash page for {trashDays} days.
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
          <ErrorBox error={forget.error} />
        </ConfirmDialog>
      ) : null}
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

export function truncate(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}
