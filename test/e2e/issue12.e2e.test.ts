// End to end in Chromium (issue 12): the real headless server serves the built UI. A request
// through the proxy (official openai client, agent header) shows on the Activity page with its
// injected line linked to the fact it came from; Run Consolidation Now shows the dry run and
// runs only once confirmed; a bulk delete in the facts list is undone; an agent is deleted
// and restored from the Trash page. Each step asserts what the server holds; screenshots go
// to test-results/screenshots/.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AgentsResponse, TrashListResponse } from '../../src/shared/api.ts';
import { ensureWebBuild, shotDir, webDir } from './web-build.ts';
import { startEngine, type EngineHarness } from '../helpers/engine-harness.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const AGENT = 'hive-agent';
const DOOMED = 'doomed-agent';

let h: EngineHarness;
let browser: Browser;
let page: Page;
let hiveFact: number;

async function go(name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click();
  await page.getByRole('heading', { name, level: 1 }).waitFor();
}

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: join(shotDir, `${name}.png`), fullPage: true });
}

async function addFact(agentId: string, content: string): Promise<number> {
  const res = await h.api<{ id: number }>('POST', '/memory/pinned', { agent_id: agentId, content });
  expect(res.status).toBe(201);
  return res.body.id;
}

const factsOf = async (agentId: string) =>
  (
    await h.api<{ items: { content: string }[] }>('GET', `/memory/pinned?agent_id=${agentId}`)
  ).body.items
    .map((f) => f.content)
    .sort();

beforeAll(async () => {
  ensureWebBuild();
  mkdirSync(shotDir, { recursive: true });
  h = await startEngine({ config: { staticUiDir: webDir } });
  hiveFact = await addFact(AGENT, 'The user keeps bees and calls the hive Honeybadger.');
  await addFact(AGENT, 'The user drinks rooibos in the evening.');
  await addFact(AGENT, 'The user cycles to work.');
  await addFact(DOOMED, 'The user collects vinyl records.');
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  page = await context.newPage();
  page.setDefaultTimeout(10_000);
  await page.goto(`${h.url}/`);
  await page.getByLabel('Access token', { exact: true }).fill(h.token);
  await page.getByRole('button', { name: 'Connect' }).click();
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await h?.stop();
});

vi.setConfig({ testTimeout: 60_000 });

describe('issue 12 in the browser', () => {
  it('shows a proxied request on the Activity page, its injected line linked to the fact', async () => {
    h.upstream.enqueue({ kind: 'chat', content: 'Your hive is Honeybadger.' });
    const client = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: h.token, maxRetries: 0 });
    const { response } = await client.chat.completions
      .create(
        { model: 'scripted', messages: [{ role: 'user', content: 'What did I name my hive?' }] },
        { headers: { 'X-Osaurus-Agent-Id': AGENT } },
      )
      .withResponse();
    expect(response.headers.get('x-cairn-memory')).toMatch(/^injected; tokens=\d+; section=/);
    await h.idle();

    await go('Activity');
    const requests = page.getByRole('list', { name: 'Recent requests' });
    const entry = requests
      .getByRole('listitem')
      .filter({ hasText: `agent ${AGENT}` })
      .first();
    await entry.waitFor();
    expect(await entry.innerText()).toContain('x-cairn-memory: injected;');
    await entry.getByRole('button', { name: `Fact #${hiveFact}` }).click();
    const source = page.getByRole('region', { name: `Fact #${hiveFact}` });
    await source.getByText('The user keeps bees and calls the hive Honeybadger.').waitFor();
    await shot('activity');

    await source.getByRole('link', { name: 'Open in Memory' }).click();
    await page.getByRole('heading', { name: 'Memory', level: 1 }).waitFor();
    await page
      .getByRole('list', { name: 'Pinned facts' })
      .getByText('The user keeps bees and calls the hive Honeybadger.')
      .waitFor();
    expect(
      await page.getByRole('tab', { name: 'Pinned facts' }).getAttribute('aria-selected'),
    ).toBe('true');
  });

  it('selects facts, deletes them in bulk, and undoes it', async () => {
    const list = page.getByRole('list', { name: 'Pinned facts' });
    await page
      .getByRole('checkbox', { name: 'Select “The user drinks rooibos in the evening.”' })
      .check();
    await page.getByRole('checkbox', { name: 'Select “The user cycles to work.”' }).check();
    await page.getByText('2 selected').waitFor();
    await page.getByRole('button', { name: 'Delete selected' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete 2 facts?' });
    expect(await dialog.innerText()).toContain('for 30 days');
    await shot('memory-bulk-delete-confirm');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByText(/Deleted 2 facts/).waitFor();
    await expect.poll(() => list.getByText('The user cycles to work.').count()).toBe(0);
    expect(await factsOf(AGENT)).toEqual(['The user keeps bees and calls the hive Honeybadger.']);
    await shot('memory-bulk-deleted-undo');

    await page.getByRole('button', { name: 'Undo' }).click();
    await page.getByText('Restored.').waitFor();
    await list.getByText('The user cycles to work.').waitFor();
    expect(await factsOf(AGENT)).toEqual([
      'The user cycles to work.',
      'The user drinks rooibos in the evening.',
      'The user keeps bees and calls the hive Honeybadger.',
    ]);
  });

  it('shows the dry run before Run Consolidation Now, and runs only once confirmed', async () => {
    const runs = async () =>
      (await h.api<{ runs: unknown[] }>('GET', '/memory/consolidation/runs')).body.runs.length;
    const before = await runs();
    await go('Consolidation');
    await page.getByRole('button', { name: 'Run Consolidation Now' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Run consolidation now?' });
    await dialog.waitFor();
    for (const step of ['Decayed', 'Merged', 'Promoted', 'Evicted']) {
      await dialog.getByText(step, { exact: true }).waitFor();
    }
    await dialog.getByTestId('dry-run-evicted').waitFor();
    expect(await runs()).toBe(before);
    await shot('consolidation-dry-run');

    await dialog.getByRole('button', { name: 'Run now' }).click();
    await page.getByRole('region', { name: 'Consolidation report' }).waitFor();
    expect(await runs()).toBe(before + 1);
  });

  it('deletes an agent after confirmation and restores it from the Trash page', async () => {
    await go('Agents');
    await page.getByRole('button', { name: DOOMED, exact: true }).click();
    await page.getByRole('button', { name: 'Delete agent' }).click();
    const dialog = page.getByRole('alertdialog', { name: `Delete the agent ${DOOMED}?` });
    const text = await dialog.innerText();
    expect(text).toContain('1 fact');
    expect(text).toContain('restore it from the Trash page for 30 days');
    await shot('agents-delete-confirm');
    await dialog.getByRole('button', { name: 'Delete agent' }).click();
    await page.getByText(`Deleted the agent ${DOOMED}`).waitFor();
    const agentIds = async () =>
      (await h.api<AgentsResponse>('GET', '/agents')).body.agents.map((a) => a.id);
    expect(await agentIds()).not.toContain(DOOMED);
    await expect.poll(() => page.getByRole('row').filter({ hasText: DOOMED }).count()).toBe(0);

    await go('Trash');
    const entry = page
      .getByRole('list', { name: 'Trash' })
      .getByRole('listitem')
      .filter({ hasText: `Agent ${DOOMED}` });
    await entry.waitFor();
    expect(await entry.innerText()).toMatch(/purged in 30 days/);
    await shot('trash');
    await entry.getByRole('button', { name: 'Restore' }).click();
    await page.getByText(`Restored “Agent ${DOOMED}”.`).waitFor();
    expect(await agentIds()).toContain(DOOMED);
    expect(await factsOf(DOOMED)).toEqual(['The user collects vinyl records.']);
    const trash = await h.api<TrashListResponse>('GET', `/memory/trash?agent_id=${DOOMED}`);
    expect(trash.body.items).toEqual([]);

    await go('Agents');
    await page.getByRole('row').filter({ hasText: DOOMED }).waitFor();
  });
});
