import { useId, useState } from 'react';
import type { Episode } from '../../../shared/api.ts';
import { useApi } from '../api/ApiContext.tsx';
import { errorMessage } from '../api/client.ts';
import { qk } from '../api/keys.ts';
import { formatDate, truncate } from '../format.ts';
import { routeHref } from '../router.ts';
import {
  ConfirmAction,
  SelectableList,
  SelectBox,
  useForget,
  useSelectableList,
} from './deletion.tsx';
import { parseTags } from './FactEditor.tsx';
import { ListToolbar, useAfterEdit, usePagedQuery } from './PagedList.tsx';
import { Badge, DangerButton, Field, FieldError, SalienceInput, TextArea } from './ui.tsx';

const PAGE_SIZE = 20;

export function EpisodeList({ agentId }: { agentId: string }) {
  const api = useApi();
  const state = useSelectableList();
  const { filter, selection, trashDays, setOutcome } = state;
  const [editing, setEditing] = useState<number | null>(null);
  const afterEdit = useAfterEdit();

  const query = { agent_id: agentId, q: filter.words, limit: PAGE_SIZE, offset: filter.offset };
  const list = usePagedQuery(qk.episodes(agentId, query), () => api.listEpisodes(query));
  const forget = useForget(
    agentId,
    (ep: Episode) => api.deleteEpisode(ep.id, agentId),
    (ep) => `Forgot the episode “${truncate(ep.summary, 60)}”.`,
    (undo) => setOutcome({ undo }),
  );

  return (
    <div className="stack">
      <ListToolbar filter={filter} placeholder="Words in the summary…"></ListToolbar>
      <SelectableList
        agentId={agentId}
        kind="episodes"
        noun="episode"
        list={list}
        state={state}
        label="Episodes"
        empty="No episodes yet. Conversations become episodes once they are distilled."
        limit={PAGE_SIZE}
      >
        {(ep) => (
          <li key={ep.id} className="item">
            {editing === ep.id ? (
              <EpisodeEditor
                episode={ep}
                onCancel={() => setEditing(null)}
                onSaved={() => {
                  setEditing(null);
                  setOutcome({ notice: 'Episode saved.' });
                  afterEdit(agentId);
                }}
              />
            ) : (
              <>
                <div className="item-head">
                  <SelectBox
                    selection={selection}
                    id={ep.id}
                    label={`Select the episode “${truncate(ep.summary, 60)}”`}
                  />
                  <p className="item-content">{ep.summary}</p>
                </div>
                <ListLine label="Decisions" values={ep.decisions} />
                <ListLine label="Action items" values={ep.action_items} />
                <div className="item-meta">
                  <span>{formatDate(ep.conversation_at)}</span>
                  {ep.conversation_id ? (
                    <a
                      href={routeHref('memory', {
                        agent: agentId,
                        tab: 'transcript',
                        conversation: ep.conversation_id,
                      })}
                    >
                      Open the conversation
                    </a>
                  ) : null}
                  <span>salience {ep.salience.toFixed(2)}</span>
                  {ep.topics.map((t) => (
                    <Badge key={`t-${t}`}>{t}</Badge>
                  ))}
                  {ep.entities.map((t) => (
                    <Badge key={`e-${t}`} tone="accent">
                      {t}
                    </Badge>
                  ))}
                </div>
                <div className="item-actions" role="group" aria-label="Episode actions">
                  <button type="button" className="btn btn-small" onClick={() => setEditing(ep.id)}>
                    Edit
                  </button>
                  <DangerButton onClick={() => forget.ask(ep)}>Forget</DangerButton>
                </div>
              </>
            )}
          </li>
        )}
      </SelectableList>
      <ConfirmAction action={forget} title={() => 'Forget this episode?'} confirmLabel="Forget">
        {(ep) => (
          <>
            <p>“{truncate(ep.summary, 300)}”</p>
            <p className="muted">
              It goes to the trash; you can restore it from the Trash page for {trashDays} days. The
              raw transcript stays until you forget it too.
            </p>
          </>
        )}
      </ConfirmAction>
    </div>
  );
}

function ListLine({ label, values }: { label: string; values: string[] }) {
  if (values.length === 0) return null;
  return (
    <p className="small">
      <strong>{label}:</strong> {values.join(' · ')}
    </p>
  );
}

function EpisodeEditor({
  episode,
  onCancel,
  onSaved,
}: {
  episode: Episode;
  onCancel: () => void;
  onSaved: () => void;
}) {
  const api = useApi();
  const id = useId();
  const [summary, setSummary] = useState(episode.summary);
  const [topics, setTopics] = useState(episode.topics.join(', '));
  const [salience, setSalience] = useState(String(episode.salience));
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  return (
    <form
      className="stack"
      aria-label="Edit episode"
      onSubmit={(e) => {
        e.preventDefault();
        setBusy(true);
        setError(undefined);
        api
          .patchEpisode(episode.id, episode.agent_id, {
            summary,
            topics: parseTags(topics),
            salience: Number(salience),
          })
          .then(onSaved, (err: unknown) => setError(errorMessage(err)))
          .finally(() => setBusy(false));
      }}
    >
      <Field id={`${id}-summary`} label="Summary">
        {(control) => <TextArea {...control} rows={4} value={summary} onChange={setSummary} />}
      </Field>
      <div className="row wrap">
        <Field id={`${id}-topics`} label="Topics (comma-separated)" className="field grow">
          {(control) => (
            <input {...control} value={topics} onChange={(e) => setTopics(e.target.value)} />
          )}
        </Field>
        <Field id={`${id}-salience`} label="Salience (0–1)">
          {(control) => <SalienceInput {...control} value={salience} onChange={setSalience} />}
        </Field>
      </div>
      <FieldError id={`${id}-error`} message={error} />
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          Save
        </button>
        <button type="button" className="btn" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
