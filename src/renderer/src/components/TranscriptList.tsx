import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import type { TranscriptRow } from '../../../shared/api.ts';
import { useApi } from '../api/ApiContext.tsx';
import { qk } from '../api/keys.ts';
import { formatDate } from '../format.ts';
import { truncate } from './PinnedList.tsx';
import { Badge, ConfirmDialog, EmptyState, ErrorBox, FilterField, Loading, Pager } from './ui.tsx';

const PAGE_SIZE = 50;

export function TranscriptList({ agentId }: { agentId: string }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const id = useId();
  const [q, setQ] = useState('');
  const [debouncedQ, setDebouncedQ] = useState('');
  const [conversation, setConversation] = useState('');
  const [offset, setOffset] = useState(0);
  const [forgetting, setForgetting] = useState<TranscriptRow | null>(null);
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
    onSuccess: () => {
      setForgetting(null);
      void queryClient.invalidateQueries({ queryKey: qk.memory(agentId) });
      void queryClient.invalidateQueries({ queryKey: qk.agents });
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
            </button>
          </p>
        ) : null}
      </div>
      <ErrorBox error={list.error} />
      {list.isPending ? (
        <Loading />
      ) : items.length === 0 ? (
        <EmptyState>No messages recorded.</EmptyState>
      ) : (
        <ul className="item-list transcript" aria-label="Transcript">
          {items.map((row) => (
            <li key={row.id} className={`item role-${row.role}`}>
              <div className="item-meta">
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
          <ErrorBox error={forget.error} />
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
