// End to end: the real headless server serves the built UI; Debian's Chromium drives it.
// A conversation sent through the proxy with the official openai client shows up in the
// UI; the user edits a fact, forgets another (gone from search and from the next injected
// block), changes the budget (persists across a restart on the same data), runs
// consolidation and sees the report. Every page is checked at 100% and 200% zoom, light and
// dark (heading, navigation, scheme, contrast, no sideways scrolling); the screenshots taken
// there go to test-results/screenshots/.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEngine, type EngineHarness } from '../helpers/engine-harness.ts';
import { ensureWebBuild, shotDir, webDir } from './web-build.ts';
import { startScriptedUpstream, type ScriptedUpstream } from '../helpers/scripted-upstream.ts';

const AGENT = 'e2e-agent';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let upstream: ScriptedUpstream;
let h: EngineHarness;
let dataDir: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;

interface PinnedDto {
  id: number;
  content: string;
}

async function start(previous?: EngineHarness): Promise<EngineHarness> {
  return startEngine({
    dataDir,
    upstream,
    dbKey: previous?.dbKey,
    token: previous?.token,
    config: { staticUiDir: webDir },
  });
}

async function signIn(p: Page, harness: EngineHarness): Promise<void> {
  await p.goto(`${harness.url}/`);
  p.setDefaultTimeout(10_000);
  await p.getByLabel('Access token', { exact: true }).fill(harness.token);
  await p.getByRole('button', { name: 'Connect' }).click();
  await p.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
}

async function go(p: Page, name: string): Promise<void> {
  await p.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click();
  await p.getByRole('heading', { name, level: 1 }).waitFor();
}

/**
 * What a screenshot of the current page shows, measured in the page: the h1 text, how many
 * links the main navigation has, the relative luminance of the page background (0 black, 1
 * white), the contrast ratio of the h1 against what is behind it, and how far the document is
 * wider than the window (CSS px).
 */
function pageLooks(): {
  heading: string;
  navLinks: number;
  background: number;
  headingContrast: number;
  overflowX: number;
} {
  const rgb = (css: string): [number, number, number, number] => {
    const m = css.match(/[\d.]+/g)?.map(Number) ?? [0, 0, 0, 0];
    return [m[0] ?? 0, m[1] ?? 0, m[2] ?? 0, m[3] ?? 1];
  };
  const luminance = ([r, g, b]: number[]): number => {
    const lin = (c: number) => {
      const x = c / 255;
      return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * lin(r ?? 0) + 0.7152 * lin(g ?? 0) + 0.0722 * lin(b ?? 0);
  };
  // The first ancestor with an opaque background paints what is behind the element.
  const backgroundOf = (el: Element | null): number => {
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c[3] > 0) return luminance(c);
    }
    return 1; // the browser's default canvas is white
  };
  const h1 = document.querySelector('h1');
  const fg = h1 ? luminance(rgb(getComputedStyle(h1).color)) : 0;
  const bg = backgroundOf(h1);
  const doc = document.documentElement;
  return {
    heading: h1?.textContent?.trim() ?? '',
    navLinks: document.querySelectorAll('nav[aria-label="Main"] a').length,
    background: backgroundOf(document.querySelector('main') ?? document.body),
    headingContrast: (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05),
    overflowX: doc.scrollWidth - doc.clientWidth,
  };
}

async function shot(p: Page, name: string): Promise<void> {
  await p.screenshot({ path: join(shotDir, `${name}.png`), fullPage: true });
}

beforeAll(async () => {
  ensureWebBuild();
  mkdirSync(shotDir, { recursive: true });
  dataDir = mkdtempSync(join(tmpdir(), 'cairn-e2e-'));
  upstream = await startScriptedUpstream();
  h = await start();
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
  context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  page = await context.newPage();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await h?.stop();
  await upstream?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

vi.setConfig({ testTimeout: 60_000 });

describe('Cairn UI end to end', () => {
  it('serves the UI with a strict CSP and asks for the token once', async () => {
    const res = await fetch(`${h.url}/`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await signIn(page, h);
    await expect.poll(() => page.getByText('Running').count()).toBeGreaterThan(0);
    await page.reload();
    // The token is remembered: no prompt after a reload.
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    // Memory can be paused and resumed from the overview.
    await page.getByRole('button', { name: 'Pause memory' }).click();
    await page.getByText('Paused — requests pass through without memory').waitFor();
    expect((await h.api<{ enabled: boolean }>('GET', '/settings')).body.enabled).toBe(false);
    await page.getByRole('button', { name: 'Resume memory' }).click();
    await page.getByRole('button', { name: 'Pause memory' }).waitFor();
    expect((await h.api<{ enabled: boolean }>('GET', '/settings')).body.enabled).toBe(true);
    expect(errors, errors.join('\n')).toEqual([]);
  });

  it('shows a conversation sent through the proxy', async () => {
    upstream.enqueue({ kind: 'chat', content: 'Nice to meet you, Ada! Lisbon is lovely.' });
    const client = new OpenAI({
      baseURL: `${h.url}/v1`,
      apiKey: h.token,
      defaultHeaders: { 'X-Osaurus-Agent-Id': AGENT },
    });
    const reply = await client.chat.completions.create({
      model: 'scripted',
      messages: [{ role: 'user', content: 'Hello! I am Ada and I live in Lisbon by the river.' }],
    });
    expect(reply.choices[0]?.message.content).toContain('Nice to meet you');
    await h.idle();

    await go(page, 'Agents');
    const row = page.getByRole('row').filter({ hasText: AGENT });
    await row.waitFor();
    await shot(page, 'agents');
    await row.getByRole('link', { name: 'Browse memory' }).click();
    await page.getByRole('heading', { name: 'Memory', level: 1 }).waitFor();
    await page.getByRole('tab', { name: 'Transcript' }).click();
    await page.getByText('I am Ada and I live in Lisbon by the river.').waitFor();
    await page.getByText('Nice to meet you, Ada! Lisbon is lovely.').waitFor();
    await shot(page, 'memory-transcript');
  });

  it('edits a fact, and forgets another: gone from search and from the injected block', async () => {
    // One fact added by hand in the UI, one through the API.
    await page.getByRole('tab', { name: 'Pinned facts' }).click();
    await page.getByRole('button', { name: 'Add fact' }).click();
    const form = page.getByRole('form', { name: 'New fact' });
    await form.getByLabel('Fact').fill('Ada drinks green tea every morning');
    await form.getByLabel('Tags (comma-separated)').fill('drinks, habits');
    await form.getByRole('button', { name: 'Add fact' }).click();
    await page.getByText('Fact added.').waitFor();
    const created = await h.api<PinnedDto>('POST', '/memory/pinned', {
      agent_id: AGENT,
      content: 'Ada has a cat named Pixelbeard',
      salience: 0.9,
    });
    expect(created.status).toBeLessThan(300);
    await page.reload();
    const list = page.getByRole('list', { name: 'Pinned facts' });
    await list.getByText('Ada has a cat named Pixelbeard').waitFor();
    await shot(page, 'memory-pinned');

    // Edit.
    const teaItem = list.getByRole('listitem').filter({ hasText: 'green tea' });
    await teaItem.getByRole('button', { name: 'Edit' }).click();
    const editor = page.getByRole('form', { name: 'Edit fact' });
    await editor.getByLabel('Fact').fill('Ada drinks jasmine tea every morning');
    await editor.getByRole('button', { name: 'Save' }).click();
    await list.getByText('Ada drinks jasmine tea every morning').waitFor();
    const afterEdit = await h.api<{ items: PinnedDto[] }>(
      'GET',
      `/memory/pinned?agent_id=${AGENT}`,
    );
    expect(afterEdit.body.items.map((f) => f.content)).toContain(
      'Ada drinks jasmine tea every morning',
    );
    expect(afterEdit.body.items.map((f) => f.content)).not.toContain(
      'Ada drinks green tea every morning',
    );

    // Before forgetting, the cat is found and would be injected.
    const searchCat = () =>
      h.api<{ results: { content: string }[] }>('POST', '/memory/search', {
        agent_id: AGENT,
        scope: 'pinned',
        query: 'cat Pixelbeard',
      });
    const contextCat = () =>
      h.api<{ block: string }>('POST', '/memory/context', {
        agent_id: AGENT,
        message: 'What is the name of my cat Pixelbeard?',
      });
    expect((await searchCat()).body.results.map((r) => r.content)).toContain(
      'Ada has a cat named Pixelbeard',
    );
    expect((await contextCat()).body.block).toContain('Pixelbeard');

    // Forget, with confirmation.
    const catItem = list.getByRole('listitem').filter({ hasText: 'Pixelbeard' });
    await catItem.getByRole('button', { name: 'Forget' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Forget this fact?' });
    await shot(page, 'memory-forget-confirm');
    await confirm.getByRole('button', { name: 'Forget' }).click();
    await page.getByText(/Forgot “Ada has a cat named Pixelbeard/).waitFor();
    await expect.poll(() => list.getByText('Ada has a cat named Pixelbeard').count()).toBe(0);

    expect((await searchCat()).body.results.map((r) => r.content)).not.toContain(
      'Ada has a cat named Pixelbeard',
    );
    expect((await contextCat()).body.block).not.toContain('Pixelbeard');

    // The UI's search agrees: the edited fact is found, the forgotten one is not.
    await page.getByRole('tab', { name: 'Search' }).click();
    const searchBox = page.getByRole('searchbox', { name: 'Search' });
    await searchBox.fill('jasmine tea');
    await page.getByLabel('Scope').selectOption('pinned');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const results = page.getByRole('list', { name: 'Search results' });
    await results.getByText('Ada drinks jasmine tea every morning').waitFor();
    await searchBox.fill('Pixelbeard cat');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('Nothing found.').waitFor();

    // Identity is edited in its own tab.
    await page.getByRole('tab', { name: 'Identity' }).click();
    await page.getByLabel('Narrative').fill('Ada is a hydrologist who lives in Lisbon.');
    await page.getByLabel('Always-on facts (one per line)').fill('Answer in British English');
    await page.getByRole('button', { name: 'Save identity' }).click();
    await page.getByText('Identity saved.').waitFor();
    const identity = await h.api<{ narrative: string; overrides: string[] }>(
      'GET',
      `/memory/identity?agent_id=${AGENT}`,
    );
    expect(identity.body.narrative).toBe('Ada is a hydrologist who lives in Lisbon.');
    expect(identity.body.overrides).toEqual(['Answer in British English']);
    await shot(page, 'memory-identity');

    // The UI's own preview agrees.
    await go(page, 'Agents');
    await page.getByRole('button', { name: AGENT }).click();
    await page.getByLabel('Message').fill('What is the name of my cat Pixelbeard?');
    await page.getByRole('button', { name: 'Preview memory' }).click();
    await page.getByText('Section:').waitFor();
    expect(await page.locator('main').innerText()).not.toContain('cat named Pixelbeard');
    await shot(page, 'agents-preview');
  });

  it('changes the memory budget, which persists across an engine restart', async () => {
    await go(page, 'Settings');
    const budget = page.getByLabel('Memory budget (tokens)');
    await budget.fill('50');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Memory budget (tokens) must be a whole number in 100–4000.').waitFor();
    await shot(page, 'settings-invalid');
    await budget.fill('1500');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();

    const token = h.token;
    await h.stop();
    h = await start({ ...h, token } as EngineHarness);
    const stored = await h.api<{ memoryBudgetTokens: number }>('GET', '/settings');
    expect(stored.body.memoryBudgetTokens).toBe(1500);

    await signIn(page, h);
    await go(page, 'Settings');
    await expect.poll(() => page.getByLabel('Memory budget (tokens)').inputValue()).toBe('1500');
    await shot(page, 'settings');

    // Test connection lists the upstream's models through Cairn.
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByText(/Connected: 2 models available/).waitFor();
    await page
      .getByRole('list', { name: 'Available models' })
      .getByText('scripted-model')
      .waitFor();
  });

  it('runs consolidation now and shows the report and history', async () => {
    await go(page, 'Consolidation');
    await page.getByRole('button', { name: 'Run Consolidation Now' }).click();
    // The dry run comes first (issue 12); the run starts once confirmed.
    await page
      .getByRole('alertdialog', { name: 'Run consolidation now?' })
      .getByRole('button', { name: 'Run now' })
      .click();
    const report = page.getByRole('region', { name: 'Consolidation report' });
    await report.waitFor();
    await expect.poll(() => report.getByTestId('report-decayed').count()).toBe(1);
    for (const label of ['Decayed', 'Merged', 'Promoted', 'Evicted']) {
      await report.getByText(label, { exact: true }).waitFor();
    }
    const runs = await h.api<{ runs: { trigger: string }[] }>('GET', '/memory/consolidation/runs');
    expect(runs.body.runs.some((r) => r.trigger === 'manual')).toBe(true);
    await page.getByRole('table').getByText('Manual').first().waitFor();
    await shot(page, 'consolidation');
  });

  it('works from the keyboard alone', async () => {
    await page.goto(`${h.url}/#/overview`);
    await page.reload();
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    await page.keyboard.press('Tab');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe('Skip to content');
    // Tab to the Memory link and follow it with Enter.
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press('Tab');
      if ((await page.evaluate(() => document.activeElement?.textContent)) === 'Memory') break;
    }
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Memory', level: 1 }).waitFor();
    await page.getByLabel('Agent').selectOption(AGENT);
    // Arrow keys move between the memory tabs.
    await page.getByRole('tab', { name: 'Pinned facts' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect
      .poll(() => page.getByRole('tab', { name: 'Episodes' }).getAttribute('aria-selected'))
      .toBe('true');
    await page.keyboard.press('ArrowLeft');
    // Escape closes the forget dialog and gives focus back to the button that opened it.
    const forget = page
      .getByRole('list', { name: 'Pinned facts' })
      .getByRole('button', { name: 'Forget' })
      .first();
    await forget.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('alertdialog').waitFor();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe('Cancel');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('alertdialog').count()).toBe(0);
    await expect.poll(() => forget.evaluate((el) => el === document.activeElement)).toBe(true);
  });

  it('every page reads at 100% and 200% zoom, light and dark (screenshots kept)', async () => {
    const pages = [
      'Overview',
      'Agents',
      'Memory',
      'Activity',
      'Trash',
      'Consolidation',
      'Settings',
      'Diagnostics',
    ];
    const variants = [
      { suffix: 'light', scheme: 'light' as const, zoom: 1 },
      { suffix: 'dark', scheme: 'dark' as const, zoom: 1 },
      { suffix: 'light-200', scheme: 'light' as const, zoom: 2 },
      { suffix: 'dark-200', scheme: 'dark' as const, zoom: 2 },
    ];
    for (const v of variants) {
      // 200% zoom of a 1280×860 window: half the CSS pixels, twice the device pixels.
      const ctx = await browser.newContext({
        viewport: { width: 1280 / v.zoom, height: 860 / v.zoom },
        deviceScaleFactor: v.zoom,
        colorScheme: v.scheme,
      });
      const p = await ctx.newPage();
      await signIn(p, h);
      for (const name of pages) {
        const where = `${name} (${v.suffix})`;
        await go(p, name);
        if (name === 'Memory') {
          await p.getByLabel('Agent').selectOption(AGENT);
          await p.getByRole('list', { name: 'Pinned facts' }).waitFor();
        }
        await p.waitForLoadState('networkidle');
        const looks = await p.evaluate(pageLooks);
        // What the screenshot shows: the page's own heading and the navigation, in the
        // scheme asked for, readable, and (WCAG 1.4.10) nothing cut off sideways at 200%.
        expect(looks.heading, where).toBe(name);
        expect(looks.navLinks, where).toBeGreaterThanOrEqual(pages.length);
        expect(looks.background < 0.5, `${where}: dark background`).toBe(v.scheme === 'dark');
        expect(looks.headingContrast, `${where}: heading contrast`).toBeGreaterThanOrEqual(4.5);
        expect(looks.overflowX, `${where}: horizontal overflow (px)`).toBeLessThanOrEqual(0);
        await shot(p, `${name.toLowerCase()}-${v.suffix}`);
      }
      await ctx.close();
    }
  }, 120_000);
});
