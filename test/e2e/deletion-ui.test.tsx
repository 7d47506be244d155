// @vitest-environment jsdom
// Deleting and undoing from the UI (issue 12) against the real engine: bulk delete + Undo in a
// memory list, deleting a conversation and an agent after a confirmation that names what goes
// and for how long it can be restored, the Trash page (restore, delete now), per-agent
// controls, the dry run before Run Consolidation Now, the new settings, and the Activity page
// linking an injected line to its source. What the UI shows is what the server holds.
import '@testing-library/jest-dom/vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import OpenAI from 'openai';
import type { ReactNode } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type {
  AgentControls,
  AgentsResponse,
  ConsolidationDryRun,
  TrashListResponse,
} from '../../src/shared/api.ts';
import { ApiProvider } from '../../src/renderer/src/api/ApiContext.tsx';
import { createApiClient, type ApiClient } from '../../src/renderer/src/api/client.ts';
import { PinnedList } from '../../src/renderer/src/components/PinnedList.tsx';
import { SettingsForm } from '../../src/renderer/src/components/SettingsForm.tsx';
import { TranscriptList } from '../../src/renderer/src/components/TranscriptList.tsx';
import { ActivityPage } from '../../src/renderer/src/pages/ActivityPage.tsx';
import { AgentsPage } from '../../src/renderer/src/pages/AgentsPage.tsx';
import { ConsolidationPage } from '../../src/renderer/src/pages/ConsolidationPage.tsx';
import { TrashPage } from '../../src/renderer/src/pages/TrashPage.tsx';
import { parseHash } from '../../src/renderer/src/router.ts';
import { startEngine, type EngineHarness } from '../helpers/engine-harness.ts';

let h: EngineHarness;
let api: ApiClient;

beforeAll(async () => {
  h = await startEngine();
  api = createApiClient({ baseUrl: h.url, token: h.token });
});
afterAll(async () => {
  await h?.stop();
});
afterEach(cleanup);

function renderWithApi(ui: ReactNode) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <ApiProvider client={api}>{ui}</ApiProvider>
    </QueryClientProvider>,
  );
}

async function addFact(agentId: string, content: string): Promise<number> {
  const res = await h.api<{ id: number }>('POST', '/memory/pinned', { agent_id: agentId, content });
  expect(res.status).toBe(201);
  return res.body.id;
}
const facts = async (agentId: string) =>
  (
    await h.api<{ items: { content: string }[] }>(
      'GET',
      `/memory/pinned?agent_id=${agentId}&limit=100`,
    )
  ).body.items.map((f) => f.content);
const messages = async (agentId: string, conversation: string) =>
  (
    await h.api<{ items: { content: string }[] }>(
      'GET',
      `/memory/transcript?agent_id=${agentId}&conversation_id=${conversation}&limit=100`,
    )
  ).body.items.map((r) => r.content);
async function ingest(agentId: string, conversationId: string, user: string) {
  const res = await h.api('POST', '/memory/ingest', {
    agent_id: agentId,
    conversation_id: conversationId,
    skip_extraction: true,
    turns: [{ user, assistant: 'Noted.' }],
  });
  expect(res.status).toBe(200);
}

describe('bulk delete and undo', () => {
  it('deletes the selected facts as one trash entry after confirmation, and Undo brings them back', async () => {
    const user = userEvent.setup();
    for (const f of ['Likes figs', 'Owns a kayak', 'Speaks Basque']) await addFact('bulk', f);
    renderWithApi(<PinnedList agentId="bulk" />);
    await screen.findByText('Owns a kayak');
    const deleteButton = screen.getByRole('button', { name: 'Delete selected' });
    expect(deleteButton).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: 'Select “Likes figs”' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select “Speaks Basque”' }));
    expect(screen.getByText('2 selected')).toBeInTheDocument();
    await user.click(deleteButton);

    const dialog = screen.getByRole('alertdialog', { name: 'Delete 2 facts?' });
    expect(dialog).toHaveTextContent('restore them from the Trash page for 30 days');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await screen.findByText(/Deleted 2 facts/);
    expect(await facts('bulk')).toEqual(['Owns a kayak']);
    await waitFor(() => expect(screen.queryByText('Likes figs')).not.toBeInTheDocument());
    const trash = await h.api<TrashListResponse>('GET', '/memory/trash?agent_id=bulk');
    expect(trash.body.items[0]).toMatchObject({ kind: 'selection', item_count: 2 });

    await user.click(screen.getByRole('button', { name: 'Undo' }));
    await screen.findByText('Restored.');
    expect((await facts('bulk')).sort()).toEqual(['Likes figs', 'Owns a kayak', 'Speaks Basque']);
    await screen.findByText('Likes figs');
  });

  it('shows where a fact came from and forgets those messages with it when asked', async () => {
    const user = userEvent.setup();
    const res = await h.api('POST', '/memory/ingest', {
      agent_id: 'sourced',
      conversation_id: 'c1',
      turns: [
        { user: 'My manager is Priya Raman.', assistant: 'Noted.' },
        { user: 'I play the cello on Sundays.', assistant: 'Lovely.' },
      ],
    });
    expect(res.status).toBe(200);
    renderWithApi(<PinnedList agentId="sourced" />);
    const item = (await screen.findByText(/manager is Priya Raman/)).closest('li')!;
    // The fact links to the message it came from, and that to its conversation.
    await user.click(within(item).getByRole('button', { name: 'Sources' }));
    const sourceList = await within(item).findByRole('list', { name: 'Where this fact came from' });
    expect(sourceList).toHaveTextContent('My manager is Priya Raman.');
    expect(
      within(sourceList).getByRole('link', { name: 'Open the conversation' }).getAttribute('href'),
    ).toBe('#/memory?agent=sourced&tab=transcript&conversation=c1');
    await user.click(within(item).getByRole('button', { name: 'Forget' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Forget this fact?' });
    await within(dialog).findByText(/My manager is Priya Raman\./);
    await user.click(within(dialog).getByRole('checkbox', { name: 'Also delete this message' }));
    await user.click(within(dialog).getByRole('button', { name: 'Forget' }));
    await screen.findByText(/Forgot “/);
    const left = await messages('sourced', 'c1');
    expect(left).not.toContain('My manager is Priya Raman.');
    expect(left).toContain('I play the cello on Sundays.');
  });

  it('offers Undo after forgetting a single fact', async () => {
    const user = userEvent.setup();
    await addFact('single', 'Grows tomatoes on the balcony');
    renderWithApi(<PinnedList agentId="single" />);
    const item = (await screen.findByText('Grows tomatoes on the balcony')).closest('li')!;
    await user.click(within(item).getByRole('button', { name: 'Forget' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Forget this fact?' });
    expect(dialog).toHaveTextContent('for 30 days');
    await user.click(within(dialog).getByRole('button', { name: 'Forget' }));
    await screen.findByText(/Forgot “Grows tomatoes/);
    expect(await facts('single')).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    await screen.findByText('Restored.');
    expect(await facts('single')).toEqual(['Grows tomatoes on the balcony']);
  });
});

describe('deleting a conversation', () => {
  it('names the conversation and the trash period, deletes only it, and can be undone', async () => {
    const user = userEvent.setup();
    await ingest('conv', 'trip', 'We fly to Oslo on Friday.');
    await ingest('conv', 'work', 'The report is due Monday.');
    renderWithApi(<TranscriptList agentId="conv" />);
    const row = (await screen.findByText('We fly to Oslo on Friday.')).closest('li')!;
    await user.click(within(row).getByRole('button', { name: /conversation trip/ }));
    await user.click(await screen.findByRole('button', { name: 'Delete conversation' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete this conversation?' });
    expect(dialog).toHaveTextContent('Conversation trip');
    expect(dialog).toHaveTextContent('restore it from the Trash page for 30 days');
    await user.click(within(dialog).getByRole('button', { name: 'Delete conversation' }));
    await screen.findByText(/Deleted the conversation trip \(2 messages/);
    expect(await messages('conv', 'trip')).toEqual([]);
    expect(await messages('conv', 'work')).toHaveLength(2);

    await user.click(screen.getByRole('button', { name: 'Undo' }));
    await screen.findByText('Restored.');
    expect(await messages('conv', 'trip')).toEqual(['We fly to Oslo on Friday.', 'Noted.']);
  });
});

describe('agents page', () => {
  function renderAgents(agent: string, navigations: string[]) {
    renderWithApi(
      <AgentsPage
        route={parseHash(`#/agents?agent=${agent}`)}
        navigate={(page, params) => navigations.push(`${page}?${new URLSearchParams(params)}`)}
      />,
    );
  }
  const controls = async (agent: string) =>
    (await h.api<{ controls: AgentControls }>('GET', `/agents/${agent}`)).body.controls;

  it('saves per-agent controls; an empty field means the global setting', async () => {
    const user = userEvent.setup();
    await addFact('ctl', 'Prefers tea');
    renderAgents('ctl', []);
    const form = await screen.findByRole('form', { name: 'Controls of ctl' });
    const budget = within(form).getByLabelText('Memory budget (tokens)');
    expect(budget).toHaveAttribute('placeholder', 'global: 800');
    expect(budget).toHaveAccessibleDescription(
      expect.stringContaining('Empty: the global setting (800 tokens)'),
    );

    await user.type(budget, '50');
    await user.click(within(form).getByRole('button', { name: 'Save controls' }));
    expect(
      await within(form).findByText(/Memory budget \(tokens\) must be a whole number in 100–4000/),
    ).toBeInTheDocument();
    expect((await controls('ctl')).memory_budget_tokens).toBeNull();

    await user.clear(budget);
    await user.type(budget, '1200');
    await user.type(within(form).getByLabelText('Display name'), 'Tea bot');
    await user.click(within(form).getByLabelText(/Pause memory for this agent/));
    await user.click(within(form).getByRole('button', { name: 'Save controls' }));
    await within(form).findByText('Controls saved.');
    expect(await controls('ctl')).toEqual({
      display_name: 'Tea bot',
      paused: true,
      memory_budget_tokens: 1200,
      episode_retention_days: null,
      transcript_retention_days: null,
    });
    await screen.findByText('Memory paused');

    await user.clear(budget);
    await user.click(within(form).getByRole('button', { name: 'Save controls' }));
    await waitFor(async () => expect((await controls('ctl')).memory_budget_tokens).toBeNull());
  });

  it('deletes an agent after a confirmation naming what goes, and Undo restores it', async () => {
    const user = userEvent.setup();
    await addFact('gone', 'Collects stamps');
    await ingest('gone', 'c', 'I found a rare stamp.');
    const navigations: string[] = [];
    renderAgents('gone', navigations);
    await user.click(await screen.findByRole('button', { name: 'Delete agent' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete the agent gone?' });
    expect(dialog).toHaveTextContent('1 fact, 0 episodes, 2 messages');
    expect(dialog).toHaveTextContent('restore it from the Trash page for 30 days');
    await user.click(within(dialog).getByRole('button', { name: 'Delete agent' }));
    await screen.findByText(/Deleted the agent gone/);
    expect(navigations).toEqual(['agents?']);
    const ids = async () =>
      (await h.api<AgentsResponse>('GET', '/agents')).body.agents.map((a) => a.id);
    expect(await ids()).not.toContain('gone');

    await user.click(screen.getByRole('button', { name: 'Undo' }));
    await screen.findByText('Restored.');
    expect(await ids()).toContain('gone');
    expect(await facts('gone')).toEqual(['Collects stamps']);
  });
});

describe('trash page', () => {
  it('lists what was deleted with when it is purged; restores, and deletes for good', async () => {
    const user = userEvent.setup();
    const keep = await addFact('bin', 'Keeps bees');
    const drop = await addFact('bin', 'Hates olives');
    await h.api('DELETE', `/memory/pinned/${keep}?agent_id=bin`);
    await h.api('DELETE', `/memory/pinned/${drop}?agent_id=bin`);
    renderWithApi(<TrashPage />);
    const list = await screen.findByRole('list', { name: 'Trash' });
    const entry = (label: RegExp) =>
      within(list)
        .getAllByRole('listitem')
        .find((li) => label.test(li.textContent ?? ''))!;
    await waitFor(() => expect(entry(/Keeps bees/)).toBeDefined());
    expect(entry(/Keeps bees/)).toHaveTextContent(/purged in 30 days/);

    await user.click(within(entry(/Keeps bees/)).getByRole('button', { name: 'Restore' }));
    await screen.findByText(/Restored “/);
    expect(await facts('bin')).toEqual(['Keeps bees']);

    await user.click(within(entry(/Hates olives/)).getByRole('button', { name: 'Delete now' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete for good?' });
    expect(dialog).toHaveTextContent('This cannot be undone.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete now' }));
    await screen.findByText(/Deleted “Hates olives” for good/);
    const trash = await h.api<TrashListResponse>('GET', '/memory/trash?agent_id=bin');
    expect(trash.body.items).toEqual([]);
  });
});

describe('consolidation', () => {
  it('shows the dry run first, changes nothing until confirmed, then runs', async () => {
    const user = userEvent.setup();
    const runs = async () =>
      (await h.api<{ runs: unknown[] }>('GET', '/memory/consolidation/runs')).body.runs.length;
    const before = await runs();
    const expected = await h.api<ConsolidationDryRun>('POST', '/memory/consolidate', {
      dry_run: true,
    });
    renderWithApi(<ConsolidationPage />);
    await user.click(screen.getByRole('button', { name: 'Run Consolidation Now' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Run consolidation now?' });
    for (const [key, n] of Object.entries(expected.body.counts)) {
      expect(within(dialog).getByTestId(`dry-run-${key}`)).toHaveTextContent(String(n));
    }
    expect(await runs()).toBe(before);

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(await runs()).toBe(before);

    await user.click(screen.getByRole('button', { name: 'Run Consolidation Now' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Run now' }),
    );
    await screen.findByRole('region', { name: 'Consolidation report' });
    expect(await runs()).toBe(before + 1);
  });
});

describe('settings for the trash and the activity view', () => {
  it('saves trashDays, transcriptRetentionDays and activityKeepLines, with ranges', async () => {
    const user = userEvent.setup();
    render(<SettingsForm settings={await api.getSettings()} onSave={(p) => api.putSettings(p)} />);
    const days = screen.getByLabelText('Keep deleted memory in the trash (days)');
    await user.clear(days);
    await user.type(days, '0');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(days).toHaveAttribute('aria-invalid', 'true');
    await user.clear(days);
    await user.type(days, '14');
    const transcript = screen.getByLabelText('Keep the transcript (days)');
    await user.clear(transcript);
    await user.type(transcript, '90');
    const keep = screen.getByLabelText('Keep the text of injected lines in the Activity view');
    expect(keep).not.toBeChecked();
    expect(keep).toHaveAccessibleDescription(expect.stringContaining('never its words'));
    await user.click(keep);
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    await screen.findByText('Settings saved.');
    const stored = await h.api<Record<string, unknown>>('GET', '/settings');
    expect(stored.body).toMatchObject({
      trashDays: 14,
      transcriptRetentionDays: 90,
      activityKeepLines: true,
    });
    await h.api('PUT', '/settings', {
      trashDays: 30,
      transcriptRetentionDays: 0,
      activityKeepLines: false,
    });
  });
});

describe('activity page', () => {
  it('shows a proxied request with its injected line linked to the fact it came from', async () => {
    const user = userEvent.setup();
    const fact = await addFact('act', 'The user calls the hive Honeybadger and keeps bees.');
    h.upstream.enqueue({ kind: 'chat', content: 'Honeybadger.' });
    // jsdom looks like a browser to the client; this test runs in Node against a local server.
    const client = new OpenAI({
      baseURL: `${h.url}/v1`,
      apiKey: h.token,
      maxRetries: 0,
      dangerouslyAllowBrowser: true,
    });
    await client.chat.completions.create(
      { model: 'm', messages: [{ role: 'user', content: 'What did I name my hive?' }] },
      { headers: { 'X-Osaurus-Agent-Id': 'act' } },
    );
    await h.idle();
    renderWithApi(<ActivityPage route={parseHash('#/activity?agent=act')} navigate={() => {}} />);
    const list = await screen.findByRole('list', { name: 'Recent requests' });
    const item = within(list).getAllByRole('listitem')[0]!;
    expect(item).toHaveTextContent(/x-cairn-memory: injected; tokens=\d+; section=pinned/);
    expect(within(item).getAllByText('text not kept').length).toBeGreaterThan(0);
    expect(screen.getByLabelText('Keep the text of injected lines')).not.toBeChecked();

    await user.click(within(item).getByRole('button', { name: `Fact #${fact}` }));
    const source = await screen.findByRole('region', { name: `Fact #${fact}` });
    await within(source).findByText('The user calls the hive Honeybadger and keeps bees.');
    expect(within(source).getByRole('link', { name: 'Open in Memory' })).toHaveAttribute(
      'href',
      '#/memory?agent=act&tab=pinned',
    );
  });
});
