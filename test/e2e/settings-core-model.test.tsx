// @vitest-environment jsdom
// The Core Model field of the settings form against the real engine (real HTTP server, real
// encrypted database): auto, off or a named model, what each means for the provider in use,
// and for a remote provider the cost in words. The remote URL is only a string given to the
// form: nothing here sends a request anywhere but loopback.
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import axe from 'axe-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src/renderer/src/api/client.ts';
import { SettingsForm } from '../../src/renderer/src/components/SettingsForm.tsx';
import { distillCostFigures } from '../../src/shared/core-model.ts';
import { startEngine, type EngineHarness } from '../helpers/engine-harness.ts';

const REMOTE = 'https://api.example.com/v1';

let h: EngineHarness;
let api: ApiClient;
const puts: unknown[] = [];

beforeAll(async () => {
  // The settings as a user sees them: no Core Model override from the command line.
  h = await startEngine({ config: { coreModel: undefined } });
  api = createApiClient({ baseUrl: h.url, token: h.token });
});
afterAll(async () => {
  await h?.stop();
});
afterEach(async () => {
  cleanup();
  puts.length = 0;
  await h.api('PUT', '/settings', { coreModelMode: 'auto' });
});

async function renderForm(upstreamUrl: string) {
  const settings = await api.getSettings();
  render(
    <SettingsForm
      settings={settings}
      upstreamUrl={upstreamUrl}
      onSave={(patch) => {
        puts.push(patch);
        return api.putSettings(patch);
      }}
    />,
  );
}

const radio = (name: RegExp) => screen.getByRole('radio', { name });
const explanation = () => radio(/^Auto/).getAttribute('aria-describedby')!;
const helpText = () => document.getElementById(explanation())!.textContent!;
const stored = async () =>
  (await h.api<{ coreModelMode: string; coreModel: string | null }>('GET', '/settings')).body;

describe('Core Model field (real server)', () => {
  it('auto by default; on this computer it says the chat model distils for free', async () => {
    await renderForm(h.upstream.url);
    expect(screen.getByRole('radiogroup', { name: /Core Model/ })).toBeInTheDocument();
    expect(radio(/^Auto/)).toBeChecked();
    expect(screen.getByLabelText('Core Model name')).toBeDisabled();
    const host = new URL(h.upstream.url).host;
    expect(radio(/^Auto/)).toHaveAccessibleDescription(
      expect.stringContaining(
        `model it was chatted with, on ${host} (this computer): no extra cost`,
      ),
    );
    expect(helpText()).not.toMatch(/tokens/);
  });

  it('for a remote provider, auto stays free and naming a model says what it costs', async () => {
    const user = userEvent.setup();
    await renderForm(REMOTE);
    const typical = distillCostFigures().typicalTokens.toLocaleString('en-US');
    expect(helpText()).toContain('api.example.com is not on this computer, so auto uses the');
    await user.click(radio(/^This model/));
    await user.type(screen.getByLabelText('Core Model name'), 'gpt-4o-mini');
    expect(helpText()).toContain(
      `gpt-4o-mini on api.example.com distils every conversation. One extra request per ` +
        `conversation to api.example.com, about ${typical} input tokens for a typical conversation`,
    );
    expect(helpText()).toMatch(/characters per token, never more than about [\d,]+ tokens/);
    expect(helpText()).not.toMatch(/\$|USD|price/i);
  });

  it('a named model needs a name; saved, the server keeps it as the explicit choice', async () => {
    const user = userEvent.setup();
    await renderForm(h.upstream.url);
    await user.click(radio(/^This model/));
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    const name = screen.getByLabelText('Core Model name');
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription(
      expect.stringContaining('Name the model, or choose Auto or Off.'),
    );
    expect(puts).toEqual([]);
    expect(await stored()).toMatchObject({ coreModelMode: 'auto', coreModel: null });

    await user.type(name, 'qwen2.5:7b');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Settings saved.')).toBeInTheDocument();
    expect(puts).toEqual([{ coreModelMode: 'explicit', coreModel: 'qwen2.5:7b' }]);
    expect(await stored()).toMatchObject({ coreModelMode: 'explicit', coreModel: 'qwen2.5:7b' });
  });

  it('off is saved as off, with no model name', async () => {
    const user = userEvent.setup();
    await h.api('PUT', '/settings', { coreModel: 'qwen2.5:7b' });
    await renderForm(h.upstream.url);
    expect(radio(/^This model/)).toBeChecked();
    await user.click(radio(/^Off/));
    expect(helpText()).toContain('no request is ever sent to a model');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Settings saved.')).toBeInTheDocument();
    expect(puts).toEqual([{ coreModelMode: 'off', coreModel: null }]);
    expect(await stored()).toMatchObject({ coreModelMode: 'off', coreModel: null });
  });

  it('the field passes axe (roles, names, descriptions) in every mode', async () => {
    const user = userEvent.setup();
    await renderForm(REMOTE);
    const group = screen.getByRole('radiogroup', { name: /Core Model/ });
    for (const mode of [/^Auto/, /^Off/, /^This model/]) {
      await user.click(radio(mode));
      // colour contrast needs layout, which jsdom has not: the Chromium UI test covers it
      const result = await axe.run(group, { rules: { 'color-contrast': { enabled: false } } });
      expect(result.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
      expect(result.passes.map((p) => p.id)).toEqual(expect.arrayContaining(['label']));
    }
  });
});
