import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { ApiProvider, useApi } from './api/ApiContext.tsx';
import { createApiClient } from './api/client.ts';
import { initialConnection, storeToken, type Connection } from './api/connection.ts';
import { qk } from './api/keys.ts';
import { ActivityPage } from './pages/ActivityPage.tsx';
import { AgentsPage } from './pages/AgentsPage.tsx';
import { ConsolidationPage } from './pages/ConsolidationPage.tsx';
import { DiagnosticsPage } from './pages/DiagnosticsPage.tsx';
import { MemoryPage } from './pages/MemoryPage.tsx';
import { OverviewPage } from './pages/OverviewPage.tsx';
import { SettingsPage } from './pages/SettingsPage.tsx';
import { TrashPage } from './pages/TrashPage.tsx';
import { PAGES, routeHref, useRoute } from './router.ts';
import { useTheme, type ThemeChoice } from './theme.ts';
import { ErrorBox } from './components/ui.tsx';

export function App({ connection: given }: { connection?: Connection }) {
  const [connection, setConnection] = useState<Connection>(() => given ?? initialConnection());
  const [unauthorized, setUnauthorized] = useState(false);
  const queryClient = useMemo(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: {
            staleTime: 5_000,
            retry: (count, err) =>
              count < 2 &&
              !(
                err instanceof Error &&
                'status' in err &&
                (err as { status: number }).status >= 400
              ),
          },
        },
      }),
    [],
  );
  const client = useMemo(
    () =>
      createApiClient({
        baseUrl: connection.baseUrl,
        token: connection.token,
        onUnauthorized: () => {
          if (!connection.desktop) setUnauthorized(true);
        },
      }),
    [connection],
  );

  if (!connection.token || unauthorized) {
    return (
      <TokenPrompt
        invalid={unauthorized}
        onSubmit={(token) => {
          storeToken(token);
          setUnauthorized(false);
          queryClient.clear();
          setConnection({ ...connection, token });
        }}
      />
    );
  }
  return (
    <QueryClientProvider client={queryClient}>
      <ApiProvider client={client}>
        <Shell
          onSignOut={
            connection.desktop
              ? undefined
              : () => {
                  storeToken(null);
                  queryClient.clear();
                  setConnection({ ...connection, token: null });
                }
          }
        />
      </ApiProvider>
    </QueryClientProvider>
  );
}

function Shell({ onSignOut }: { onSignOut?: () => void }) {
  const [route, navigate] = useRoute();
  const [theme, setTheme] = useTheme();
  const api = useApi();
  const health = useQuery({
    queryKey: qk.health,
    queryFn: ({ signal }) => api.health(signal),
    refetchInterval: 10_000,
  });
  const themeId = useId();
  const status = health.data
    ? health.data.status === 'ok'
      ? { tone: 'ok', text: 'Server running' }
      : { tone: 'warn', text: 'Server degraded' }
    : health.error
      ? { tone: 'error', text: 'Server unreachable' }
      : { tone: 'neutral', text: 'Connecting…' };

  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <aside className="sidebar">
        <div className="brand">
          <CairnMark />
          <span>Cairn</span>
        </div>
        <nav aria-label="Main">
          <ul>
            {PAGES.map((p) => (
              <li key={p.id}>
                <a
                  href={routeHref(p.id)}
                  className="nav-link"
                  aria-current={route.page === p.id ? 'page' : undefined}
                >
                  {p.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="sidebar-footer">
          <p className={`status-line status-${status.tone}`} role="status">
            <span className="dot" aria-hidden="true" />
            {status.text}
            {health.data && !health.data.memoryEnabled ? ' · memory paused' : ''}
          </p>
          <div className="field">
            <label htmlFor={themeId}>Theme</label>
            <select
              id={themeId}
              value={theme}
              onChange={(e) => setTheme(e.target.value as ThemeChoice)}
            >
              <option value="system">System</option>
              <option value="light">Light</option>
              <option value="dark">Dark</option>
            </select>
          </div>
          {onSignOut ? (
            <button type="button" className="btn btn-small" onClick={onSignOut}>
              Forget token
            </button>
          ) : null}
        </div>
      </aside>
      <main id="main" className="main" tabIndex={-1}>
        {route.page === 'overview' ? <OverviewPage /> : null}
        {route.page === 'agents' ? <AgentsPage route={route} navigate={navigate} /> : null}
        {route.page === 'memory' ? <MemoryPage route={route} navigate={navigate} /> : null}
        {route.page === 'activity' ? <ActivityPage route={route} navigate={navigate} /> : null}
        {route.page === 'trash' ? <TrashPage /> : null}
        {route.page === 'consolidation' ? <ConsolidationPage /> : null}
        {route.page === 'settings' ? <SettingsPage /> : null}
        {route.page === 'diagnostics' ? <DiagnosticsPage /> : null}
      </main>
    </div>
  );
}

function TokenPrompt({
  onSubmit,
  invalid,
}: {
  onSubmit: (token: string) => void;
  invalid: boolean;
}) {
  const id = useId();
  const [token, setToken] = useState('');
  return (
    <main className="token-prompt">
      <form
        className="card stack"
        aria-labelledby={`${id}-title`}
        onSubmit={(e) => {
          e.preventDefault();
          if (token.trim()) onSubmit(token.trim());
        }}
      >
        <div className="brand">
          <CairnMark />
          <span>Cairn</span>
        </div>
        <h1 id={`${id}-title`}>Enter your access token</h1>
        <p className="muted">
          The token is printed by <code>cairn serve</code> on its first start and by{' '}
          <code>cairn token</code>, and shown in the desktop app. It is kept in this browser&apos;s
          local storage.
        </p>
        {invalid ? <ErrorBox error={new Error('The server did not accept this token.')} /> : null}
        <div className="field">
          <label htmlFor={`${id}-token`}>Access token</label>
          <input
            id={`${id}-token`}
            type="password"
            autoComplete="off"
            autoFocus
            value={token}
            onChange={(e) => setToken(e.target.value)}
          />
        </div>
        <div>
          <button type="submit" className="btn btn-primary" disabled={!token.trim()}>
            Connect
          </button>
        </div>
      </form>
    </main>
  );
}

function CairnMark() {
  return (
    <svg className="mark" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <ellipse cx="16" cy="26" rx="12" ry="4.5" className="stone stone-1" />
      <ellipse cx="16" cy="18" rx="9" ry="4" className="stone stone-2" />
      <ellipse cx="16" cy="10.5" rx="6" ry="3.5" className="stone stone-3" />
      <ellipse cx="16" cy="4.5" rx="3.2" ry="2.2" className="stone stone-4" />
    </svg>
  );
}
