// The trash (issue 12): everything deleted, by hand or by consolidation, stays restorable for
// `trashDays`. Each entry says what it holds and when it is purged; Restore puts it back, and
// "Delete now" purges it at once after a confirmation.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { TrashItem } from '../../../shared/api.ts';
import { useApi } from '../api/ApiContext.tsx';
import { qk } from '../api/keys.ts';
import { AgentPicker } from '../components/AgentPicker.tsx';
import {
  ConfirmAction,
  countsText,
  useAfterDeletion,
  useConfirmed,
  useTrashDays,
} from '../components/deletion.tsx';
import { PagedList, usePagedQuery } from '../components/PagedList.tsx';
import { Badge, Card, DangerButton, ErrorBox, Notice, PageHeader } from '../components/ui.tsx';
import { formatDate, formatRelative, plural } from '../format.ts';

const PAGE_SIZE = 25;

const KINDS: Record<string, string> = {
  fact: 'Fact',
  episode: 'Episode',
  message: 'Message',
  conversation: 'Conversation',
  agent: 'Agent',
  selection: 'Selection',
  prune: 'Pruned by consolidation',
  evict: 'Evicted by consolidation',
};

/** "in 29 days" / "in 5 h" / "today": when an entry is purged for good. */
export function expiresIn(iso: string, now = Date.now()): string {
  const ms = Date.parse(iso) - now;
  if (Number.isNaN(ms)) return iso;
  if (ms <= 0) return 'at the next purge';
  const hours = Math.floor(ms / 3_600_000);
  if (hours < 24) return hours < 1 ? 'within the hour' : `in ${plural(hours, 'hour')}`;
  return `in ${plural(Math.round(ms / 86_400_000), 'day')}`;
}

export function TrashPage() {
  const api = useApi();
  const trashDays = useTrashDays();
  const afterChange = useAfterDeletion();
  const [agent, setAgent] = useState('');
  const [offset, setOffset] = useState(0);
  const [notice, setNotice] = useState<string | null>(null);

  const query = { agent_id: agent || undefined, limit: PAGE_SIZE, offset };
  const list = usePagedQuery([...qk.trash, query], () => api.listTrash(query));
  const restore = useMutation({
    mutationFn: (item: TrashItem) => api.restoreTrash(item.id),
    onSuccess: (_res, item) => {
      setNotice(`Restored “${item.label}”.`);
      afterChange(item.agent_id);
    },
  });
  const purge = useConfirmed(
    (item: TrashItem) => api.purgeTrash(item.id),
    (_res, item) => {
      setNotice(`Deleted “${item.label}” for good.`);
      afterChange(item.agent_id);
    },
  );

  return (
    <div className="page">
      <PageHeader title="Trash">
        <AgentPicker
          value={agent}
          onChange={(a) => {
            setAgent(a);
            setOffset(0);
          }}
          allowAll
        />
      </PageHeader>
      <Card>
        <p className="muted">
          Deleted memory stays here for {plural(trashDays, 'day')} (see Settings), then it is
          deleted for good. Nothing in the trash is searched or injected.
        </p>
        {notice ? <Notice tone="ok">{notice}</Notice> : null}
        <ErrorBox error={list.error} />
        <ErrorBox error={restore.error} />
        <PagedList
          list={list}
          label="Trash"
          empty="The trash is empty."
          limit={PAGE_SIZE}
          offset={offset}
          onPage={setOffset}
        >
          {(item) => (
            <li key={item.id} className="item">
              <p className="item-content">{item.label}</p>
              <div className="item-meta">
                <Badge tone="accent">{KINDS[item.kind] ?? item.kind}</Badge>
                <span>agent {item.agent_id}</span>
                <span>{countsText(item.counts)}</span>
                <span title={formatDate(item.deleted_at)}>
                  deleted {formatRelative(item.deleted_at)}
                </span>
                <span title={formatDate(item.expires_at)}>purged {expiresIn(item.expires_at)}</span>
              </div>
              <div className="item-actions" role="group" aria-label="Trash entry actions">
                <button
                  type="button"
                  className="btn btn-small btn-primary"
                  disabled={restore.isPending}
                  onClick={() => restore.mutate(item)}
                >
                  Restore
                </button>
                <DangerButton onClick={() => purge.ask(item)}>Delete now</DangerButton>
              </div>
            </li>
          )}
        </PagedList>
      </Card>
      <ConfirmAction action={purge} title={() => 'Delete for good?'} confirmLabel="Delete now">
        {(item) => (
          <p>
            “{item.label}” ({countsText(item.counts)}) is deleted from the encrypted database now
            instead of {expiresIn(item.expires_at)}. This cannot be undone.
          </p>
        )}
      </ConfirmAction>
    </div>
  );
}
