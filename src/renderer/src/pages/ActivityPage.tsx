// What memory did (issue 12): the last requests that carried X-Osaurus-Agent-Id, newest first,
// with the section the gate chose, the tokens injected, the x-cairn-memory answer, and every
// injected line linked to the memory row it came from. The lines' words are shown only when
// the user opted in (activityKeepLines); the sources are always there.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { ActivityItem, ActivityLine, ActivitySource } from '../../../shared/api.ts';
import { useApi } from '../api/ApiContext.tsx';
import { qk } from '../api/keys.ts';
import { AgentPicker } from '../components/AgentPicker.tsx';
import {
  Badge,
  Card,
  CheckField,
  ErrorBox,
  Loading,
  PageHeader,
  QueryBody,
} from '../components/ui.tsx';
import { formatDate, formatRelative, plural, truncate } from '../format.ts';
import { routeHref, type Route } from '../router.ts';

const LIMIT = 100;

const SCOPE_NAMES: Record<ActivitySource['scope'], string> = {
  identity: 'Identity',
  pinned: 'Fact',
  episodes: 'Episode',
  transcript: 'Message',
};
const SCOPE_TABS: Record<ActivitySource['scope'], string> = {
  identity: 'identity',
  pinned: 'pinned',
  episodes: 'episodes',
  transcript: 'transcript',
};

/** "Fact #12", "Identity (narrative)": the name of a line's source. */
export function sourceName(source: ActivitySource): string {
  if (source.scope === 'identity') {
    return source.id === null ? 'Identity (narrative)' : `Identity fact ${source.id + 1}`;
  }
  return `${SCOPE_NAMES[source.scope]} #${source.id ?? '?'}`;
}

export function ActivityPage({
  route,
  navigate,
}: {
  route: Route;
  navigate: (page: 'activity', params: Record<string, string | undefined>) => void;
}) {
  const api = useApi();
  const agent = route.params.get('agent') ?? '';
  const activity = useQuery({
    queryKey: qk.activity(agent),
    queryFn: () => api.activity({ agent_id: agent || undefined, limit: LIMIT }),
    refetchInterval: 10_000,
  });

  return (
    <div className="page">
      <PageHeader title="Activity">
        <AgentPicker
          value={agent}
          onChange={(a) => navigate('activity', { agent: a || undefined })}
          allowAll
        />
      </PageHeader>
      <KeepLinesCard />
      <Card
        title="Recent requests"
        actions={
          <button
            type="button"
            className="btn btn-small"
            onClick={() => void activity.refetch()}
            disabled={activity.isFetching}
          >
            Refresh
          </button>
        }
      >
        <ErrorBox error={activity.error} />
        <QueryBody
          query={activity}
          isEmpty={(d) => d.items.length === 0}
          empty={
            <>
              No request with the <code>X-Osaurus-Agent-Id</code> header yet
              {agent ? ` for ${agent}` : ''}. Requests without it get no memory; their responses say
              so in <code>x-cairn-memory: none; reason=no-agent-header</code>.
            </>
          }
        >
          {(d) => (
            <ol className="item-list activity-list" aria-label="Recent requests">
              {d.items.map((item) => (
                <ActivityEntry key={item.id} item={item} />
              ))}
            </ol>
          )}
        </QueryBody>
      </Card>
    </div>
  );
}

/** The opt-in, explained where its effect is seen (the same switch as in Settings). */
function KeepLinesCard() {
  const api = useApi();
  const queryClient = useQueryClient();
  const id = useId();
  const settings = useQuery({ queryKey: qk.settings, queryFn: () => api.getSettings() });
  const save = useMutation({
    mutationFn: (on: boolean) => api.putSettings({ activityKeepLines: on }),
    onSuccess: (next) => {
      queryClient.setQueryData(qk.settings, next);
      void queryClient.invalidateQueries({ queryKey: ['activity'] });
    },
  });
  const keep = settings.data?.activityKeepLines ?? false;
  return (
    <Card>
      <CheckField
        id={id}
        label="Keep the text of injected lines"
        checked={keep}
        disabled={!settings.data || save.isPending}
        describedBy={`${id}-help`}
        onChange={(on) => save.mutate(on)}
      />
      <p id={`${id}-help`} className="muted small">
        {keep
          ? 'On: each request below keeps the lines exactly as they were injected, inside the encrypted database. Turning this off deletes the kept text.'
          : 'Off (default): each request below keeps only where its lines came from (which fact, episode or message), never their words. Open a source to see that memory as it is now.'}
      </p>
      <ErrorBox error={save.error} />
    </Card>
  );
}

function ActivityEntry({ item }: { item: ActivityItem }) {
  const injected = item.lines.length > 0;
  return (
    <li className="item activity-item">
      <div className="item-meta">
        <time dateTime={item.at} title={formatDate(item.at)}>
          {formatRelative(item.at)}
        </time>
        <span>agent {item.agent_id}</span>
        <span>{item.protocol}</span>
        <Badge tone={injected ? 'accent' : 'neutral'}>{item.section}</Badge>
        <span>{plural(item.tokens, 'token')}</span>
        <a
          className="small"
          href={routeHref('memory', {
            agent: item.agent_id,
            tab: 'transcript',
            conversation: item.conversation_id,
          })}
        >
          conversation {truncate(item.conversation_id, 24)}
        </a>
      </div>
      <p className="small">
        <code>x-cairn-memory: {item.header}</code>
      </p>
      {injected ? (
        <ul className="activity-lines" aria-label="Injected lines">
          {item.lines.map((line, i) => (
            <InjectedLine key={i} line={line} agentId={item.agent_id} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

function InjectedLine({ line, agentId }: { line: ActivityLine; agentId: string }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <li className="activity-line">
      <span className={line.text === null ? 'muted' : 'pre-wrap'}>
        {line.text ?? 'text not kept'}
      </span>{' '}
      <button
        type="button"
        className="link-button small"
        aria-expanded={open}
        aria-controls={`${id}-source`}
        onClick={() => setOpen((o) => !o)}
      >
        {sourceName(line.source)}
      </button>
      {open ? (
        <div id={`${id}-source`}>
          <SourceView source={line.source} agentId={agentId} />
        </div>
      ) : null}
    </li>
  );
}

/** The memory behind a line as it is now, with a link to it in the Memory page. */
function SourceView({ source, agentId }: { source: ActivitySource; agentId: string }) {
  const api = useApi();
  const row = useQuery({
    queryKey: ['activity-source', agentId, source.scope, source.id],
    queryFn: () => api.activitySource(agentId, source),
    retry: false,
  });
  const href = routeHref('memory', {
    agent: agentId,
    tab: SCOPE_TABS[source.scope],
    conversation:
      source.scope === 'transcript' ? (row.data?.conversation_id ?? undefined) : undefined,
  });
  return (
    <div className="panel source-view" role="region" aria-label={sourceName(source)}>
      {row.isPending ? <Loading /> : null}
      {row.error ? (
        <p className="muted">This memory was deleted or changed since; it is no longer stored.</p>
      ) : null}
      {row.data ? (
        <>
          <p className="pre-wrap">{row.data.text}</p>
          <p className="small muted">
            {row.data.created_at ? `stored ${formatDate(row.data.created_at)} · ` : ''}
            <a href={href}>Open in Memory</a>
          </p>
        </>
      ) : null}
    </div>
  );
}
