import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../api/ApiContext.tsx';
import { ApiError } from '../api/client.ts';
import { bridge } from '../api/connection.ts';
import { qk } from '../api/keys.ts';
import { ExportImportCard } from '../components/ExportImportCard.tsx';
import { SettingsForm } from '../components/SettingsForm.tsx';
import {
  Badge,
  Card,
  CopyButton,
  ErrorBox,
  Loading,
  MutationButton,
  Notice,
} from '../components/ui.tsx';

const trimSlash = (url: string): string => url.replace(/\/+$/, '');

export function SettingsPage() {
  const api = useApi();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: qk.settings, queryFn: () => api.getSettings() });
  const models = useMutation({ mutationFn: () => api.models() });
  const health = useQuery({ queryKey: qk.health, queryFn: ({ signal }) => api.health(signal) });
  const upstreamUrl = health.data?.upstream.url ?? null;
  // The server answers with the upstream it uses. When no saved provider has that URL, it
  // comes from --upstream / CAIRN_UPSTREAM_URL, which wins over the providers below: say so,
  // or a provider added here would seem to be ignored.
  const startupUpstream =
    upstreamUrl !== null &&
    settings.data !== undefined &&
    !settings.data.providers.some((p) => trimSlash(p.baseUrl) === trimSlash(upstreamUrl))
      ? upstreamUrl
      : null;

  return (
    <div className="page">
      <h1>Settings</h1>
      <ErrorBox error={settings.error} />
      {settings.isPending ? <Loading /> : null}
      {startupUpstream ? (
        <Notice>
          Cairn was started with the upstream <code>{startupUpstream}</code> (
          <code>--upstream</code> or <code>CAIRN_UPSTREAM_URL</code>). Requests go there, not to the
          providers below, until Cairn is started without it.
        </Notice>
      ) : null}
      {settings.data ? (
        <Card>
          <SettingsForm
            settings={settings.data}
            desktop={Boolean(bridge())}
            upstreamUrl={startupUpstream}
            models={models.data?.data.map((m) => m.id)}
            onSave={async (patch) => {
              const next = await api.putSettings(patch);
              queryClient.setQueryData(qk.settings, next);
              void queryClient.invalidateQueries({ queryKey: qk.health });
              return next;
            }}
          />
        </Card>
      ) : null}

      <Card
        title="Test connection"
        actions={
          <MutationButton mutation={models} busyLabel="Testing…">
            Test connection
          </MutationButton>
        }
      >
        <p className="muted">
          Asks the active provider for its models through Cairn (<code>GET /v1/models</code>). Save
          your provider settings first.
        </p>
        <ErrorBox error={models.error} title="The provider did not answer" />
        {models.data ? (
          <div aria-live="polite">
            <Notice tone="ok">
              Connected: {models.data.data.length} model{models.data.data.length === 1 ? '' : 's'}{' '}
              available. They are offered in the Core Model field above.
            </Notice>
            <ul className="chips" aria-label="Available models">
              {models.data.data.map((m) => (
                <li key={m.id}>
                  <Badge>{m.id}</Badge>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </Card>

      <RecoveryKeyCard />
      <ExportImportCard />
    </div>
  );
}

function RecoveryKeyCard() {
  const api = useApi();
  const key = useMutation({ mutationFn: () => api.recoveryKey() });
  const unavailable = key.error instanceof ApiError && key.error.status === 404;
  return (
    <Card title="Recovery key">
      <p className="muted">
        The recovery key opens your memory if the key in the OS keychain is lost. Keep it somewhere
        safe, away from this computer.
      </p>
      {key.data ? (
        <div className="row wrap">
          <code className="token" data-testid="recovery-key">
            {key.data.recovery_key}
          </code>
          <CopyButton text={key.data.recovery_key} />
          <button type="button" className="btn btn-small" onClick={() => key.reset()}>
            Hide
          </button>
        </div>
      ) : (
        <button type="button" className="btn" onClick={() => key.mutate()} disabled={key.isPending}>
          Show recovery key
        </button>
      )}
      {unavailable ? (
        <p className="muted">This server does not expose the recovery key over the API.</p>
      ) : (
        <ErrorBox error={key.error} />
      )}
    </Card>
  );
}
