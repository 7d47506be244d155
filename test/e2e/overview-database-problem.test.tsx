// @vitest-environment jsdom
// The Overview page against the real engine: a full disk (a real SQLITE_FULL) shows a banner
// with the reason and what to do; a sound database shows none.
import '@testing-library/jest-dom/vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiProvider } from '../../src/renderer/src/api/ApiContext.tsx';
import { createApiClient } from '../../src/renderer/src/api/client.ts';
import { OverviewPage } from '../../src/renderer/src/pages/OverviewPage.tsx';
import { startEngine, type EngineHarness } from '../helpers/engine-harness.ts';

const harnesses: EngineHarness[] = [];
afterEach(async () => {
  cleanup();
  await Promise.all(harnesses.splice(0).map((h) => h.stop()));
});

function renderPage(h: EngineHarness) {
  const client = createApiClient({ baseUrl: h.url, token: h.token });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <ApiProvider client={client}>
        <OverviewPage />
      </ApiProvider>
    </QueryClientProvider>,
  );
}

describe('Overview page: database problems', () => {
  it('shows what is wrong and what to do when the disk is full', async () => {
    const h = await startEngine({ upstream: null, config: { writerWorker: false } });
    harnesses.push(h);
    const db = h.services.db;
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
    const refused = await h.api('POST', '/memory/ingest', {
      agent_id: 'ann',
      conversation_id: 'diary',
      turns: Array.from({ length: 50 }, (_, i) => ({
        user: `Diary page ${i}: ${randomBytes(1000).toString('hex')}`,
      })),
      skip_extraction: true,
    });
    expect(refused.status).toBe(507);

    renderPage(h);
    const banner = await screen.findByTestId('database-problem');
    expect(banner).toHaveAttribute('role', 'alert');
    expect(banner).toHaveTextContent("The disk holding Cairn's data is full.");
    expect(banner).toHaveTextContent('a write to the database failed');
    expect(banner).toHaveTextContent('What to do: Free space on that disk, then retry.');
    expect(await screen.findByText('Degraded')).toBeInTheDocument();
  });

  it('shows no banner for a sound database', async () => {
    const h = await startEngine({ upstream: null });
    harnesses.push(h);
    renderPage(h);
    expect(await screen.findByText('Running')).toBeInTheDocument();
    expect(screen.queryByTestId('database-problem')).toBeNull();
  });
});
