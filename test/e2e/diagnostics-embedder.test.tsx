// @vitest-environment jsdom
// The Diagnostics page against the real engine with no sentence model on the machine: it says
// the built-in word vectors serve search by meaning, and its button tries the model again.
import '@testing-library/jest-dom/vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiProvider } from '../../src/renderer/src/api/ApiContext.tsx';
import { createApiClient } from '../../src/renderer/src/api/client.ts';
import { DiagnosticsPage } from '../../src/renderer/src/pages/DiagnosticsPage.tsx';
import { startEngine, type EngineHarness } from '../helpers/engine-harness.ts';
import { ensureWordVectorAsset } from '../helpers/word-vectors.ts';

const harnesses: EngineHarness[] = [];
afterEach(async () => {
  cleanup();
  await Promise.all(harnesses.splice(0).map((h) => h.stop()));
});

describe('Diagnostics page: embedding model', () => {
  it('shows the word vectors serving and retries the model download from a button', async () => {
    await ensureWordVectorAsset();
    const h = await startEngine({
      upstream: null,
      config: {
        embedder: {
          backend: 'transformers',
          modelId: 'cairn-test/not-on-this-machine',
          allowRemoteModels: false,
        },
      },
    });
    harnesses.push(h);
    await waitFor(
      () =>
        expect(h.services.embedder.state()).toMatchObject({
          status: 'error',
          active: 'word_vectors',
        }),
      { timeout: 20_000 },
    );
    const firstAttempt = h.services.embedder.state().retry!.nextAt!;

    const client = createApiClient({ baseUrl: h.url, token: h.token });
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={queryClient}>
        <ApiProvider client={client}>
          <DiagnosticsPage />
        </ApiProvider>
      </QueryClientProvider>,
    );
    expect(
      await screen.findByText('Word vectors (built in) until the model is ready'),
    ).toBeInTheDocument();
    expect(screen.getByText(/Next automatic attempt/)).toBeInTheDocument();
    const button = screen.getByRole('button', { name: 'Retry download' });

    await userEvent.setup().click(button);
    // The attempt ran (and failed again: still not on this machine): a new backoff series.
    await waitFor(() =>
      expect(h.services.embedder.state().retry?.nextAt ?? 0).toBeGreaterThan(firstAttempt),
    );
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Retry download' })).toBeEnabled(),
    );
  });
});
