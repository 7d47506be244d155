// @vitest-environment jsdom
// Settings → Export and import against the real engine: a service export is imported into
// the agent the user names with the format they pick, the counts are shown, a file of another
// format is refused with the server's reason and nothing is stored; the card passes axe.
import '@testing-library/jest-dom/vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import axe from 'axe-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiProvider } from '../../src/renderer/src/api/ApiContext.tsx';
import { createApiClient } from '../../src/renderer/src/api/client.ts';
import { SettingsPage } from '../../src/renderer/src/pages/SettingsPage.tsx';
import { startEngine, type EngineHarness } from '../helpers/engine-harness.ts';

const claudeExport = readFileSync(
  join(import.meta.dirname, '..', 'fixtures', 'import', 'claude-conversations.json'),
  'utf8',
);

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngine({ upstream: null });
});
afterAll(() => h?.stop());
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function renderPage() {
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

/** The browser's file picker (an <input type=file> the page clicks) answers with `text`. */
function pickFile(text: string): void {
  vi.spyOn(HTMLInputElement.prototype, 'click').mockImplementation(function (
    this: HTMLInputElement,
  ) {
    if (this.type !== 'file') return;
    const file = new File([text], 'conversations.json', { type: 'application/json' });
    Object.defineProperty(this, 'files', { value: [file] });
    this.dispatchEvent(new Event('change'));
  });
}

const transcriptCount = (agent: string) =>
  (
    h.services.db.prepare('SELECT count(*) AS n FROM transcript WHERE agent_id = ?').get(agent) as {
      n: number;
    }
  ).n;

describe('Settings page: import', () => {
  it('imports a Claude export into the named agent and shows the counts', async () => {
    renderPage();
    await userEvent.selectOptions(
      await screen.findByLabelText('Import from'),
      'Claude (conversations.json)',
    );
    await userEvent.type(screen.getByLabelText('Into agent'), 'from-the-page');
    pickFile(claudeExport);
    await userEvent.click(screen.getByRole('button', { name: 'Import memory…' }));
    expect(
      await screen.findByText(
        'Imported 2 conversation(s), 2 exchange(s). Memory is being distilled from them in the background.',
      ),
    ).toBeInTheDocument();
    expect(transcriptCount('from-the-page')).toBe(4);
  });

  it('shows why a file of another format is refused, and stores nothing', async () => {
    renderPage();
    await userEvent.selectOptions(
      await screen.findByLabelText('Import from'),
      'ChatGPT (conversations.json)',
    );
    await userEvent.type(screen.getByLabelText('Into agent'), 'wrong-format');
    pickFile(claudeExport);
    await userEvent.click(screen.getByRole('button', { name: 'Import memory…' }));
    const alert = await screen.findByText(/looks like a Claude export/);
    expect(alert).toBeInTheDocument();
    expect(transcriptCount('wrong-format')).toBe(0);
  });

  it('asks for the agent before opening the file picker', async () => {
    renderPage();
    await userEvent.selectOptions(
      await screen.findByLabelText('Import from'),
      'Open WebUI (chat export)',
    );
    const click = vi.spyOn(HTMLInputElement.prototype, 'click');
    await userEvent.click(screen.getByRole('button', { name: 'Import memory…' }));
    expect(await screen.findByText(/Name the agent/)).toBeInTheDocument();
    expect(click).not.toHaveBeenCalled();
  });

  it('passes axe with every format', async () => {
    renderPage();
    const picker = await screen.findByLabelText('Import from');
    const card = picker.closest('section')!;
    for (const option of within(picker).getAllByRole('option')) {
      await userEvent.selectOptions(picker, option);
      const result = await axe.run(card, {
        rules: { 'color-contrast': { enabled: false } },
      });
      expect(
        result.violations.map((v) => v.id),
        option.textContent ?? '',
      ).toEqual([]);
    }
  });
});
