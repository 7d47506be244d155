// @vitest-environment jsdom
// The pinned-facts list against the real engine: filter, sort, paginate, pin/unpin,
// disable, forget with confirmation. What the list shows is what the server holds.
import '@testing-library/jest-dom/vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiProvider } from '../../src/renderer/src/api/ApiContext.tsx';
import { createApiClient } from '../../src/renderer/src/api/client.ts';
import { PinnedList } from '../../src/renderer/src/components/PinnedList.tsx';
import { startEngine, type EngineHarness } from '../helpers/engine-harness.ts';

const AGENT = 'list-agent';
let h: EngineHarness;

interface Fact {
  id: number;
  content: string;
  status: string;
  pinned_by_user: boolean;
}

beforeAll(async () => {
  h = await startEngine({ upstream: null });
  const facts = [
    ['Prefers dark roast coffee', 0.9],
    ['Has a dog called Biscuit', 0.8],
    ['Works as a marine biologist', 0.7],
    ['Lives near the harbour', 0.6],
    ['Plays the cello on Sundays', 0.5],
  ] as const;
  for (const [content, salience] of facts) {
    const res = await h.api('POST', '/memory/pinned', {
      agent_id: AGENT,
      content,
      salience,
      pinned_by_user: false,
    });
    expect(res.status).toBeLessThan(300);
  }
  // Another agent's fact must never show up here.
  await h.api('POST', '/memory/pinned', { agent_id: 'other-agent', content: 'Secret of other' });
});
afterAll(async () => {
  await h?.stop();
});
afterEach(cleanup);

function renderList(pageSize = 3) {
  const client = createApiClient({ baseUrl: h.url, token: h.token });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <ApiProvider client={client}>
        <PinnedList agentId={AGENT} pageSize={pageSize} />
      </ApiProvider>
    </QueryClientProvider>,
  );
}

async function serverFacts(): Promise<Fact[]> {
  const res = await h.api<{ items: Fact[] }>('GET', `/memory/pinned?agent_id=${AGENT}&limit=100`);
  return res.body.items;
}

const items = () =>
  within(screen.getByRole('list', { name: 'Pinned facts' }))
    .getAllByRole('listitem')
    .map((li) => li.querySelector('.item-content')?.textContent);

describe('PinnedList (real server)', () => {
  it('lists by salience and paginates', async () => {
    const user = userEvent.setup();
    renderList(3);
    await screen.findByText('Prefers dark roast coffee');
    expect(items()).toEqual([
      'Prefers dark roast coffee',
      'Has a dog called Biscuit',
      'Works as a marine biologist',
    ]);
    expect(screen.getByText('1–3 of 5')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('4–5 of 5');
    await waitFor(() =>
      expect(items()).toEqual(['Lives near the harbour', 'Plays the cello on Sundays']),
    );
    expect(screen.queryByText('Secret of other')).not.toBeInTheDocument();
  });

  it('filters by words', async () => {
    const user = userEvent.setup();
    renderList(10);
    await screen.findByText('Prefers dark roast coffee');
    await user.type(screen.getByLabelText('Filter'), 'cello');
    await waitFor(() => expect(items()).toEqual(['Plays the cello on Sundays']));
  });

  it('pins, disables, and filters by status', async () => {
    const user = userEvent.setup();
    renderList(10);
    const dog = (await screen.findByText('Has a dog called Biscuit')).closest('li')!;
    await user.click(within(dog).getByRole('button', { name: 'Pin' }));
    await within(dog).findByRole('button', { name: 'Unpin' });
    await user.click(within(dog).getByRole('button', { name: 'Disable' }));
    await within(dog).findByRole('button', { name: 'Enable' });
    const stored = (await serverFacts()).find((f) => f.content === 'Has a dog called Biscuit')!;
    expect(stored).toMatchObject({ status: 'disabled', pinned_by_user: true });

    await user.selectOptions(screen.getByLabelText('Status'), 'disabled');
    await waitFor(() => expect(items()).toEqual(['Has a dog called Biscuit']));
    await user.selectOptions(screen.getByLabelText('Status'), 'active');
    await waitFor(() => expect(items()).not.toContain('Has a dog called Biscuit'));
  });

  it('forgets a fact only after confirmation', async () => {
    const user = userEvent.setup();
    renderList(10);
    const harbour = (await screen.findByText('Lives near the harbour')).closest('li')!;
    await user.click(within(harbour).getByRole('button', { name: 'Forget' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Forget this fact?' });
    // Cancel keeps it.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect((await serverFacts()).map((f) => f.content)).toContain('Lives near the harbour');

    await user.click(within(harbour).getByRole('button', { name: 'Forget' }));
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Forget' }),
    );
    await screen.findByText(/Forgot “Lives near the harbour”/);
    await waitFor(() => expect(items()).not.toContain('Lives near the harbour'));
    expect((await serverFacts()).map((f) => f.content)).not.toContain('Lives near the harbour');
  });

  it('adds a fact by hand', async () => {
    const user = userEvent.setup();
    renderList(10);
    await screen.findByText('Prefers dark roast coffee');
    await user.click(screen.getByRole('button', { name: 'Add fact' }));
    const form = screen.getByRole('form', { name: 'New fact' });
    await user.type(within(form).getByLabelText('Fact'), 'Allergic to peanuts');
    await user.click(within(form).getByRole('button', { name: 'Add fact' }));
    await screen.findByText('Fact added.');
    await screen.findByText('Allergic to peanuts');
    const stored = (await serverFacts()).find((f) => f.content === 'Allergic to peanuts');
    expect(stored?.pinned_by_user).toBe(true);
  });
});
