import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import type { TranscriptRow } from '../../../shared/api.ts';
import { useApi } from '../api/ApiContext.tsx';
import { qk } from '../api/keys.ts';
import { formatDate } from '../format.ts';
import {
  BulkDeleteBar,
  SelectBox,
  UndoNotice,
  useAfterDeletion,
  useSelection,
  useTrashDays,
  type Undoable,
} from './deletion.tsx';
import { truncate } from './PinnedList.tsx';
import { Badge, ConfirmDialog, EmptyState, ErrorBox, FilterField, Loading, Pager } from './ui.tsx';

const PAGE_SIZE = 50;

export function TranscriptList({
  agentId,
  initialConversation = '',
}: {
  agentId: string;
  /** Open on one conversation (a link from the Activity page). */
  initialConversation?: string;
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const id = useId();
  const [q, setQ] = useState('');
  const [debouncedQ, setDebouncedQ] = useState('');
  const [conversation, setConversation] = useState(initialConversation);
  const [offset, setOffset] = useState(0);
  const [forgetting, setForgetting] = useState<TranscriptRow | null>(null);
  const [deletingConversation, setDeletingConversation] = useState(false);
  const [undo, setUndo] = useState<Undoable | null>(null);
  const selection = useSelection();
  const trashDays = useTrashDays();
  const afterDeletion = useAfterDeletion();
  useEffect(() => {
    const t = setTimeout(() => setDebouncedQ(q.trim()), 250);
    return () => clearTimeout(t);
  }, [q]);
  const query = {
    agent_id: agentId,
    q: debouncedQ,
    conversation_id: conversation || undefined,
    limit: PAGE_SIZE,
    offset,
  };
  const list = useQuery({
    queryKey: qk.transcript(agentId, query),
    queryFn: () => api.listTranscript(query),
    placeholderData: keepPreviousData,
  });
  const forget = useMutation({
    mutationFn: (row: TranscriptRow) => api.deleteTranscript(row.id, agentId),
    onSuccess: (res, row) => {
      setForgetting(null);
      setUndo({
        message: `Forgot the message “${truncate(row.content, 60)}”.`,
        trashId: res.trash_id,
        agentId,
      });
      void queryClient.invalidateQueries({ queryKey: qk.memory(agentId) });
      void queryClient.invalidateQueries({ queryKey: qk.agents });
      void queryClient.invalidateQueries({ queryKey: qk.trash });
    },
  });
  const removeConversation = useMutation({
    mutationFn: (id: string) => api.deleteConversation(id, agentId),
    onSuccess: (res, id) => {
      setDeletingConversation(false);
      setConversation('');
      setOffset(0);
      setUndo({
        message: `Deleted the conversation ${truncate(id, 40)} (${countsText(res.counts)}).`,
        trashId: res.trash_id,
        agentId,
      });
      afterDeletion(agentId);
    },
  });
  const items = list.data?.items ?? [];
  return (
    <div className="stack">
      <div className="toolbar" role="search">
        <FilterField
          id={`${id}-q`}
          value={q}
          placeholder="Words in the message…"
          onChange={(value) => {
            setQ(value);
            setOffset(0);
          }}
        />
        {conversation ? (
          <p>
            Conversation <code>{truncate(conversation, 40)}</code>{' '}
            <button type="button" className="btn btn-small" onClick={() => setConversation('')}>
              Show all
            </button>{' '}
            <button
              type="button"
              className="btn btn-small btn-danger-outline"
              onClick={() => setDeletingConversation(true)}
            >
              Delete conversation
            </button>
          </p>
        ) : null}
      </div>
      {undo ? <UndoNotice key={undo.trashId} undo={undo} /> : null}
      <ErrorBox error={list.error} />
      <BulkDeleteBar
        agentId={agentId}
        kind="transcript"
        noun="message"
        visible={items.map((r) => r.id)}
        selection={selection}
        onDeleted={setUndo}
      />
      {list.isPending ? (
        <Loading />
      ) : items.length === 0 ? (
        <EmptyState>No messages recorded.</EmptyState>
      ) : (
        <ul className="item-list transcript" aria-label="Transcript">
          {items.map((row) => (
            <li key={row.id} className={`item role-${row.role}`}>
              <div className="item-meta">
                <SelectBox
                  selection={selection}
                  id={row.id}
                  label={`Select the ${row.role} message “${truncate(row.content, 40)}”`}
                />
                <Badge tone={row.role === 'user' ? 'accent' : 'neutral'}>{row.role}</Badge>
                <span>{formatDate(row.created_at)}</span>
                <button
                  type="button"
                  className="link-button small"
                  onClick={() => {
                    setConversation(row.conversation_id);
                    setOffset(0);
                  }}
                >
                  conversation {truncate(row.conversation_id, 24)}
                </button>
              </div>
              <p className="item-content pre-wrap">{row.content}</p>
              <div className="item-actions">
                <button
                  type="button"
                  className="btn btn-small btn-danger-outline"
                  onClick={() => setForgetting(row)}
                >
                  Forget
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <Pager
        total={list.data?.total ?? 0}
        limit={PAGE_SIZE}
        offset={offset}
        onChange={setOffset}
        label="Transcript"
      />
      {forgetting ? (
        <ConfirmDialog
          title="Forget this message?"
          confirmLabel="Forget"
          busy={forget.isPending}
          onCancel={() => setForgetting(null)}
          onConfirm={() => forget.mutate(forgetting)}
        >
          <p>“{truncate(forgetting.content, 300)}”</p>
          <p className="muted">
            It goes to the trash; you can restore it from the Trash page for {trashDays} days.
          </p>
          <ErrorBox error={forget.error} />
        </ConfirmDialog>
      ) : null}
      {deletingConversation && conversation ? (
        <ConfirmDialog
          title="Delete this conversation?"
          confirmLabel="Delete conversation"
          busy={removeConversation.isPending}
          onCancel={() => setDeletingConversation(false)}
          onConfirm={() => removeConversation.mutate(conversation)}
        >
          <p>
            Conversation <code>{conversation}</code>: all its messages, the episode distilled from
            it, and the facts that only it supports.
          </p>
          <p className="muted">
            Everything goes to the trash as one entry: you can restore it from the Trash page for{' '}
            {trashDays} days.
          </p>
          <ErrorBox error={removeConversation.error} />
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

/** "4 messages, 1 episode, 2 facts" from a deletion's counts per table. */
export function countsText(counts: Record<string, number>): string {
  const names: Record<string, [string, string]> = {
    transcript: ['message', 'messages'],
    episodes: ['episode', 'episodes'],
    pinned_facts: ['fact', 'facts'],
    identity: ['identity', 'identities'],
  };
  const parts = Object.entries(names)
    .filter(([table]) => (counts[table] ?? 0) > 0)
    .map(([table, [one, many]]) => {
      const n = counts[table] ?? 0;
      return `${n} ${n === 1 ? one : many}`;
    });
  return parts.length > 0 ? parts.join(', ') : 'nothing stored';
}
