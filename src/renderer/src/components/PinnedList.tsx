// The pinned facts of one agent: filter, sort, paginate, edit, pin/unpin, disable, forget,
// add by hand. Every change goes through the API and refreshes this agent's memory queries.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import type { PinnedFact } from '../../../shared/api.ts';
import { useApi } from '../api/ApiContext.tsx';
import type { PinnedSort, PinnedStatusFilter } from '../api/client.ts';
import { qk } from '../api/keys.ts';
import { formatDate, formatRelative } from '../format.ts';
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
  const forget = useMutation({
    mutationFn: (fact: PinnedFact) => api.deletePinned(fact.id, agentId),
    onSuccess: (_res, fact) => {
      setForgetting(null);
      setNotice(`Forgot “${truncate(fact.content, 60)}”.`);
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
              setNotice('Fact added.');
              refresh();
            }}
          />
        </div>
      ) : null}

      {notice ? <Notice tone="ok">{notice}</Notice> : null}
      <ErrorBox error={list.error} />
      <ErrorBox error={patch.error} />

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
                    setNotice('Fact saved.');
                  }}
                />
              ) : (
                <>
                  <p className="item-content">{fact.content}</p>
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
                      className="btn btn-small btn-danger-outline"
                      onClick={() => setForgetting(fact)}
                    >
                      Forget
                    </button>
                  </div>
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
          onCancel={() => setForgetting(null)}
          onConfirm={() => forget.mutate(forgetting)}
        >
          <p>“{forgetting.content}”</p>
          <p className="muted">
            It is deleted from the encrypted database with its search index and vector. This cannot
            be undone.
          </p>
          <ErrorBox error={forget.error} />
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

export function truncate(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}
