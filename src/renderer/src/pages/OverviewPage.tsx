import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { HealthResponse } from '../../../shared/api.ts';
import { useApi } from '../api/ApiContext.tsx';
import { qk } from '../api/keys.ts';
import { Badge, Card, CopyButton, ErrorBox, Loading } from '../components/ui.tsx';
import { EmbedderStatus } from '../components/EmbedderStatus.tsx';
import { ClientSetup } from '../components/ClientSetup.tsx';
import { formatBytes, formatDuration } from '../format.ts';

const KEY_SOURCE_TEXT: Record<HealthResponse['encryption']['keySource'], string> = {
  keychain: 'OS keychain',
  env: 'CAIRN_DB_KEY environment variable',
  keyfile: 'key file in the data folder (no keychain available)',
  recovery: 'recovery key',
};

export function OverviewPage() {
  const api = useApi();
  const health = useQuery({
    queryKey: qk.health,
    queryFn: ({ signal }) => api.health(signal),
    refetchInterval: (q) =>
      q.state.data && ['downloading', 'loading'].includes(q.state.data.embedder.status)
        ? 1500
        : 10_000,
  });
  const stats = useQuery({ queryKey: qk.stats, queryFn: () => api.stats() });
  const queryClient = useQueryClient();
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => api.putSettings({ enabled }),
    onSuccess: (next) => {
      queryClient.setQueryData(qk.settings, next);
      void queryClient.invalidateQueries({ queryKey: qk.health });
    },
  });
  const [reveal, setReveal] = useState(false);
  const token = api.token ?? '';
  const h = health.data;

  return (
    <div className="page">
      <h1>Overview</h1>
      <ErrorBox error={health.error} title="Server" />
      {h?.quarantined ? (
        <div className="alert alert-error" role="alert">
          <strong>The previous database could not be opened.</strong> It was moved, untouched, to{' '}
          <code>{h.quarantined}</code> and Cairn started with an empty one. Nothing was deleted: to
          get it back, stop Cairn and restore that file with its recovery key.
        </div>
      ) : null}
      {h ? <DatabaseProblemBanner health={h} /> : null}
      <div className="grid grid-2">
        <Card title="Server">
          {h ? (
            <dl className="kv">
              <dt>Status</dt>
              <dd>
                <Badge tone={h.status === 'ok' ? 'ok' : 'warn'}>
                  {h.status === 'ok' ? 'Running' : 'Degraded'}
                </Badge>{' '}
                <span className="muted">
                  v{h.version} · up {formatDuration(h.uptimeSeconds)}
                </span>
              </dd>
              <dt>Address</dt>
              <dd>
                <code>{api.baseUrl}</code> <CopyButton text={`${api.baseUrl}/v1`} label="Copy" />
              </dd>
              <dt>Memory</dt>
              <dd>
                {h.memoryEnabled ? (
                  <Badge tone="ok">On</Badge>
                ) : (
                  <Badge tone="warn">Paused — requests pass through without memory</Badge>
                )}{' '}
                <button
                  type="button"
                  className="btn btn-small"
                  disabled={toggle.isPending}
                  onClick={() => toggle.mutate(!h.memoryEnabled)}
                >
                  {h.memoryEnabled ? 'Pause memory' : 'Resume memory'}
                </button>
                <ErrorBox error={toggle.error} />
              </dd>
              <dt>Upstream</dt>
              <dd>
                {h.upstream.configured ? (
                  <code>{h.upstream.url}</code>
                ) : (
                  <span>
                    <Badge tone="warn">Not configured</Badge>{' '}
                    <a href="#/settings">Add a provider in Settings</a>
                  </span>
                )}
              </dd>
            </dl>
          ) : health.isPending ? (
            <Loading />
          ) : null}
        </Card>
        <Card title="Encryption">
          {h ? (
            <dl className="kv">
              <dt>Database</dt>
              <dd>
                {h.encryption.enabled ? (
                  <Badge tone="ok">Encrypted ({h.encryption.cipher})</Badge>
                ) : (
                  <Badge tone="error">Not encrypted</Badge>
                )}
              </dd>
              <dt>Key source</dt>
              <dd>{KEY_SOURCE_TEXT[h.encryption.keySource]}</dd>
              {stats.data ? (
                <>
                  <dt>Size</dt>
                  <dd>{formatBytes(stats.data.db_size_bytes)}</dd>
                </>
              ) : null}
            </dl>
          ) : null}
        </Card>
      </div>

      <Card
        title="Access token"
        actions={
          <>
            <button
              type="button"
              className="btn btn-small"
              aria-pressed={reveal}
              onClick={() => setReveal((r) => !r)}
            >
              {reveal ? 'Hide' : 'Show'}
            </button>
            <CopyButton text={token} label="Copy token" />
          </>
        }
      >
        <p className="muted">
          Clients pass this as their OpenAI API key (<code>Authorization: Bearer …</code>).
        </p>
        <code className="token" data-testid="token">
          {reveal ? token : '•'.repeat(Math.min(token.length, 32))}
        </code>
      </Card>

      <Snippets baseUrl={api.baseUrl} token={token} reveal={reveal} />
      <ClientSetup baseUrl={api.baseUrl} token={token} reveal={reveal} />

      <div className="grid grid-2">
        <Card title="Embedding model">{h ? <EmbedderStatus state={h.embedder} /> : null}</Card>
        <Card title="Memory">
          {stats.data ? (
            <dl className="kv">
              <dt>Agents</dt>
              <dd>{stats.data.agents}</dd>
              <dt>Pinned facts</dt>
              <dd>{stats.data.pinned}</dd>
              <dt>Episodes</dt>
              <dd>{stats.data.episodes}</dd>
              <dt>Messages</dt>
              <dd>{stats.data.transcript}</dd>
              <dt>Awaiting distillation</dt>
              <dd>{stats.data.pending}</dd>
            </dl>
          ) : (
            <ErrorBox error={stats.error} />
          )}
        </Card>
      </div>
    </div>
  );
}

const PROBLEM_TITLE: Record<'damaged' | 'disk_full', string> = {
  damaged: "Cairn's database file is damaged.",
  disk_full: "The disk holding Cairn's data is full.",
};

/** A damaged database or a full disk: what happened and what to do (from /health). */
function DatabaseProblemBanner({ health }: { health: HealthResponse }) {
  const problem = health.problem;
  if (problem !== 'damaged' && problem !== 'disk_full') return null;
  return (
    <div className="alert alert-error" role="alert" data-testid="database-problem">
      <strong>{PROBLEM_TITLE[problem]}</strong> {health.reason}
      {health.action ? (
        <p>
          <strong>What to do:</strong> {health.action}
        </p>
      ) : null}
    </div>
  );
}

function Snippets({ baseUrl, token, reveal }: { baseUrl: string; token: string; reveal: boolean }) {
  const [tab, setTab] = useState<'curl' | 'python' | 'node'>('curl');
  const shown = reveal ? token : '<your token>';
  const make = (t: string) => snippet(tab, baseUrl, t);
  const tabs = [
    ['curl', 'curl'],
    ['python', 'Python'],
    ['node', 'Node'],
  ] as const;
  return (
    <Card title="Connect a client" actions={<CopyButton text={make(token)} label="Copy snippet" />}>
      <p className="muted">
        Point any OpenAI client at Cairn and name the agent with the <code>X-Osaurus-Agent-Id</code>{' '}
        header. The snippet is copied with your token.
      </p>
      <div className="tabs" role="tablist" aria-label="Snippet language">
        {tabs.map(([id, label]) => (
          <button
            key={id}
            type="button"
            role="tab"
            id={`snippet-tab-${id}`}
            aria-selected={tab === id}
            aria-controls="snippet-panel"
            className="tab"
            onClick={() => setTab(id)}
          >
            {label}
          </button>
        ))}
      </div>
      <pre
        className="code"
        id="snippet-panel"
        role="tabpanel"
        aria-labelledby={`snippet-tab-${tab}`}
        tabIndex={0}
      >
        {make(shown)}
      </pre>
    </Card>
  );
}

export function snippet(kind: 'curl' | 'python' | 'node', baseUrl: string, token: string): string {
  if (kind === 'curl') {
    return `curl ${baseUrl}/v1/chat/completions \\
  -H "Authorization: Bearer ${token}" \\
  -H "Content-Type: application/json" \\
  -H "X-Osaurus-Agent-Id: my-agent" \\
  -d '{"model": "your-model", "messages": [{"role": "user", "content": "Hello"}]}'`;
  }
  if (kind === 'python') {
    return `from openai import OpenAI

client = OpenAI(
    base_url="${baseUrl}/v1",
    api_key="${token}",
    default_headers={"X-Osaurus-Agent-Id": "my-agent"},
)
reply = client.chat.completions.create(
    model="your-model",
    messages=[{"role": "user", "content": "Hello"}],
)
print(reply.choices[0].message.content)`;
  }
  return `import OpenAI from 'openai';

const client = new OpenAI({
  baseURL: '${baseUrl}/v1',
  apiKey: '${token}',
  defaultHeaders: { 'X-Osaurus-Agent-Id': 'my-agent' },
});
const reply = await client.chat.completions.create({
  model: 'your-model',
  messages: [{ role: 'user', content: 'Hello' }],
});
console.log(reply.choices[0].message.content);`;
}
