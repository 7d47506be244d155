// @vitest-environment jsdom
// The settings form against the real engine (real HTTP server, real encrypted database):
// client-side ranges block bad values before sending; accepted changes persist.
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src/renderer/src/api/client.ts';
import { SettingsForm } from '../../src/renderer/src/components/SettingsForm.tsx';
import { startEngine, type EngineHarness } from '../helpers/engine-harness.ts';

let h: EngineHarness;
let api: ApiClient;
const puts: unknown[] = [];

beforeAll(async () => {
  h = await startEngine({ upstream: null });
  api = createApiClient({ baseUrl: h.url, token: h.token });
});
afterAll(async () => {
  await h?.stop();
});
afterEach(cleanup);

async function renderForm() {
  const settings = await api.getSettings();
  render(
    <SettingsForm
      settings={settings}
      onSave={(patch) => {
        puts.push(patch);
        return api.putSettings(patch);
      }}
    />,
  );
}

describe('SettingsForm (real server)', () => {
  it('enforces ranges client-side and sends nothing while a field is invalid', async () => {
    const user = userEvent.setup();
    await renderForm();
    puts.length = 0;
    const budget = screen.getByLabelText('Memory budget (tokens)');
    await user.clear(budget);
    await user.type(budget, '5000');
    const floor = screen.getByLabelText('Salience floor');
    await user.clear(floor);
    await user.type(floor, '1.2');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));

    expect(budget).toHaveAttribute('aria-invalid', 'true');
    expect(budget).toHaveAccessibleDescription(
      expect.stringContaining('Memory budget (tokens) must be a whole number in 100–4000.'),
    );
    expect(floor).toHaveAccessibleDescription(
      expect.stringContaining('Salience floor must be a number in 0–1.'),
    );
    expect(screen.getByText('2 fields need attention.')).toBeInTheDocument();
    expect(puts).toEqual([]);
    const stored = await h.api<{ memoryBudgetTokens: number }>('GET', '/settings');
    expect(stored.body.memoryBudgetTokens).toBe(800);
  });

  it('says that embedding changes take effect after a restart', async () => {
    await renderForm();
    for (const label of ['Semantic search', 'Embedding model']) {
      expect(screen.getByLabelText(label)).toHaveAccessibleDescription(
        expect.stringContaining('take effect after a restart'),
      );
    }
  });

  it('saves only what changed, and the server keeps it', async () => {
    const user = userEvent.setup();
    await renderForm();
    puts.length = 0;
    const budget = screen.getByLabelText('Memory budget (tokens)');
    await user.clear(budget);
    await user.type(budget, '1200');
    await user.selectOptions(screen.getByLabelText('Relevance gate'), 'off');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Settings saved.')).toBeInTheDocument();
    expect(puts).toEqual([{ memoryBudgetTokens: 1200, relevanceGateMode: 'off' }]);
    const stored = await h.api<{ memoryBudgetTokens: number; relevanceGateMode: string }>(
      'GET',
      '/settings',
    );
    expect(stored.body.memoryBudgetTokens).toBe(1200);
    expect(stored.body.relevanceGateMode).toBe('off');
  });

  it('adds a provider with a write-only API key', async () => {
    const user = userEvent.setup();
    await renderForm();
    await user.click(screen.getByRole('button', { name: 'Add provider' }));
    await user.type(screen.getByLabelText('Name'), 'Local Ollama');
    await user.type(screen.getByLabelText('Base URL'), 'not a url');
    await user.type(screen.getByLabelText('API key'), 'sk-test-secret');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(screen.getByLabelText('Base URL')).toHaveAttribute('aria-invalid', 'true');

    await user.clear(screen.getByLabelText('Base URL'));
    await user.type(screen.getByLabelText('Base URL'), 'http://127.0.0.1:11434/v1');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Settings saved.')).toBeInTheDocument();

    const stored = await h.api<{
      providers: { id: string; apiKeySet: boolean; apiKey?: string }[];
      activeProviderId: string;
    }>('GET', '/settings');
    expect(stored.body.providers).toEqual([
      {
        id: 'provider-1',
        name: 'Local Ollama',
        baseUrl: 'http://127.0.0.1:11434/v1',
        apiKeySet: true,
      },
    ]);
    expect(stored.body.activeProviderId).toBe('provider-1');
    // The key is never shown again: the field is empty and says a key is stored.
    const key = screen.getByLabelText('API key');
    expect(key).toHaveValue('');
    expect(key).toHaveAttribute('placeholder', 'Stored — type to replace');
  });

  it("shows the server's refusal when saving fails", async () => {
    const user = userEvent.setup();
    const settings = await api.getSettings();
    render(
      <SettingsForm
        settings={settings}
        // The server rejects unknown keys: simulate an older server by sending one.
        onSave={(patch) =>
          h.api('PUT', '/settings', { ...patch, notASetting: true }).then(async (r) => {
            const body = r.body as { error: { message: string } };
            throw new Error(body.error.message);
          })
        }
      />,
    );
    const port = screen.getByLabelText('Port');
    await user.clear(port);
    await user.type(port, '4242');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent(
        /The server refused the settings: .*notASetting/,
      ),
    );
  });
});
