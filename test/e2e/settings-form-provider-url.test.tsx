// @vitest-environment jsdom
// The settings form checks provider URLs with the schema the server uses: a `file:` or
// `javascript:` URL is shown as an error on its field and nothing is sent.
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
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

describe('SettingsForm: provider URL', () => {
  it.each([
    ['file:///etc/passwd', 'Base URL must be an http:// or https:// URL (not file:)'],
    ['javascript:alert(1)', 'Base URL must be an http:// or https:// URL (not javascript:)'],
    ['http://', 'Base URL must be an http:// or https:// URL with a host'],
  ])('%s is refused on its field before saving', async (url, message) => {
    const user = userEvent.setup();
    render(
      <SettingsForm
        settings={await api.getSettings()}
        onSave={(patch) => {
          puts.push(patch);
          return api.putSettings(patch);
        }}
      />,
    );
    puts.length = 0;
    await user.click(screen.getByRole('button', { name: 'Add provider' }));
    await user.type(screen.getByLabelText('Name'), 'Mine');
    await user.type(screen.getByLabelText('Base URL'), url);
    await user.click(screen.getByRole('button', { name: 'Save settings' }));

    const field = screen.getByLabelText('Base URL');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription(expect.stringContaining(message));
    expect(puts).toEqual([]);
    const stored = await h.api<{ providers: unknown[] }>('GET', '/settings');
    expect(stored.body.providers).toEqual([]);
  });
});
