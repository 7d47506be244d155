// @vitest-environment jsdom
// The Settings page against the real engine: an upstream given at start-up (--upstream /
// CAIRN_UPSTREAM_URL) wins over the providers saved in Settings, and the page says so.
import '@testing-library/jest-dom/vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiProvider } from '../../src/renderer/src/api/ApiContext.tsx';
import { createApiClient } from '../../src/renderer/src/api/client.ts';
import { SettingsPage } from '../../src/renderer/src/pages/SettingsPage.tsx';
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
        <SettingsPage />
      </ApiProvider>
    </QueryClientProvider>,
  );
}

describe('Settings page: where requests go', () => {
  it('says when the start-up upstream overrides the saved providers', async () => {
    const h = await startEngine();
    harnesses.push(h);
    const saved = await h.api('PUT', '/settings', {
      providers: [{ id: 'p1', name: 'Elsewhere', baseUrl: 'http://127.0.0.1:9/v1' }],
      activeProviderId: 'p1',
    });
    expect(saved.status).toBe(200);
    renderPage(h);
    await screen.findByRole('heading', { name: 'Settings' });
    const url = h.upstream.url.replace(/\/+$/, '');
    const notice = await screen.findByText(/Cairn was started with the upstream/);
    expect(notice).toHaveTextContent(url);
    expect(notice).toHaveTextContent('CAIRN_UPSTREAM_URL');
  });

  it('says nothing when requests go to the active provider', async () => {
    const h = await startEngine({ upstream: null });
    harnesses.push(h);
    const saved = await h.api('PUT', '/settings', {
      providers: [{ id: 'p1', name: 'Local', baseUrl: 'http://127.0.0.1:9/v1/' }],
      activeProviderId: 'p1',
    });
    expect(saved.status).toBe(200);
    renderPage(h);
    await screen.findByLabelText('Memory budget (tokens)');
    await screen.findByText(/Requests are forwarded to the active provider/);
    // give the health query time to answer
    await new Promise((r) => setTimeout(r, 300));
    expect(screen.queryByText(/Cairn was started with the upstream/)).toBeNull();
  });
});

describe('Settings page: encrypted backup', () => {
  it('downloads the encrypted backup and says how big it is', async () => {
    const h = await startEngine({ upstream: null });
    harnesses.push(h);
    // jsdom has no object URLs: record what would be downloaded instead.
    const saved: Blob[] = [];
    URL.createObjectURL = vi.fn((b: Blob) => {
      saved.push(b);
      return 'blob:backup';
    });
    URL.revokeObjectURL = vi.fn();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    try {
      renderPage(h);
      await userEvent.click(
        await screen.findByRole('button', { name: 'Download encrypted backup' }),
      );
      expect(await screen.findByText(/Encrypted backup saved/)).toBeInTheDocument();
      expect(click).toHaveBeenCalledTimes(1);
      expect(saved).toHaveLength(1);
      const head = new Uint8Array(await saved[0]!.arrayBuffer()).subarray(0, 15);
      expect(new TextDecoder().decode(head)).not.toBe('SQLite format 3');
      expect(saved[0]!.size).toBeGreaterThan(4096);
    } finally {
      click.mockRestore();
    }
  });
});
