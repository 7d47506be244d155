import { useState } from 'react';
import type { TranscriptRow } from '../../../shared/api.ts';
import { useApi } from '../api/ApiContext.tsx';
import { qk } from '../api/keys.ts';
import { formatDate, truncate } from '../format.ts';
import {
  ConfirmAction,
  countsText,
  SelectableList,
  SelectBox,
  useAfterDeletion,
  useConfirmed,
  useForget,
  useSelectableList,
} from './deletion.tsx';
import { ListToolbar, usePagedQuery } from './PagedList.tsx';
import { Badge, DangerButton } from './ui.tsx';

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
  const state = useSelectableList();
  const { filter, selection, trashDays, setOutcome } = state;
  const [conversation, setConversation] = useState(initialConversation);
  const afterDeletion = useAfterDeletion();
  const query = {
    agent_id: agentId,
    q: filter.words,
    conversation_id: conversation || undefined,
    limit: PAGE_SIZE,
    offset: filter.offset,
  };
  const list = usePagedQuery(qk.transcript(agentId, query), () => api.listTranscript(query));
  const forget = useForget(
    agentId,
    (row: TranscriptRow) => api.deleteTranscript(row.id, agentId),
    (row) => `Forgot the message “${truncate(row.content, 60)}”.`,
    (undo) => setOutcome({ undo }),
  );
  const removeConversation = useConfirmed(
    (conversationId: string) => api.deleteConversation(conversationId, agentId),
    (res, conversationId) => {
      setConversation('');
      filter.firstPage();
      setOutcome({
        undo: {
          message: `Deleted the conversation ${truncate(conversationId, 40)} (${countsText(res.counts)}).`,
          trashId: res.trash_id,
          agentId,
        },
      });
      afterDeletion(agentId);
    },
  );
  const showConversation = (conversationId: string) => {
    setConversation(conversationId);
    filter.firstPage();
  };
  return (
    <div className="stack">
      <ListToolbar filter={filter} placeholder="Words in the message…">
        {conversation ? (
          <p>
            Conversation <code>{truncate(conversation, 40)}</code>{' '}
            <button type="button" className="btn btn-small" onClick={() => setConversation('')}>
              Show all
            </button>{' '}
            <DangerButton onClick={() => removeConversation.ask(conversation)}>
              Delete conversation
            </DangerButton>
          </p>
        ) : null}
      </ListToolbar>
      <SelectableList
        agentId={agentId}
        kind="transcript"
        noun="message"
        list={list}
        state={state}
        label="Transcript"
        className="item-list transcript"
        empty="No messages recorded."
        limit={PAGE_SIZE}
      >
        {(row) => (
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
                onClick={() => showConversation(row.conversation_id)}
              >
                conversation {truncate(row.conversation_id, 24)}
              </button>
            </div>
            <p className="item-content pre-wrap">{row.content}</p>
            <div className="item-actions">
              <DangerButton onClick={() => forget.ask(row)}>Forget</DangerButton>
            </div>
          </li>
        )}
      </SelectableList>
      <ConfirmAction action={forget} title={() => 'Forget this message?'} confirmLabel="Forget">
        {(row) => (
          <>
            <p>“{truncate(row.content, 300)}”</p>
            <p className="muted">
              It goes to the trash; you can restore it from the Trash page for {trashDays} days.
            </p>
          </>
        )}
      </ConfirmAction>
      <ConfirmAction
        action={removeConversation}
        title={() => 'Delete this conversation?'}
        confirmLabel="Delete conversation"
      >
        {(conversationId) => (
          <>
            <p>
              Conversation <code>{conversationId}</code>: all its messages, the episode distilled
              from it, and the facts that only it supports.
            </p>
            <p className="muted">
              Everything goes to the trash as one entry: you can restore it from the Trash page for{' '}
              {trashDays} days.
            </p>
          </>
        )}
      </ConfirmAction>
    </div>
  );
}
