// The stylesheet writes each colour once (light-dark()): the system's scheme picks the side
// unless the theme toggle set data-theme, in Chromium as the app ships it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from './web-build.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const css = readFileSync(join(root, 'src', 'renderer', 'src', 'styles.css'), 'utf8');

const LIGHT_BG = 'rgb(246, 247, 249)';
const DARK_BG = 'rgb(15, 19, 24)';

let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

async function pageColours(scheme: 'light' | 'dark', theme: 'light' | 'dark' | null) {
  const page = await browser.newPage({ colorScheme: scheme });
  try {
    await page.setContent(`<html><head><style>${css}</style></head><body>text</body></html>`);
    return await page.evaluate((t) => {
      if (t) document.documentElement.setAttribute('data-theme', t);
      const style = getComputedStyle(document.body);
      return { bg: style.backgroundColor, text: style.color };
    }, theme);
  } finally {
    await page.close();
  }
}

describe('light and dark themes', () => {
  it.each([
    ['light', null, LIGHT_BG],
    ['dark', null, DARK_BG],
    ['light', 'dark', DARK_BG],
    ['dark', 'light', LIGHT_BG],
  ] as const)('system %s with the toggle on %s shows %s', async (scheme, theme, bg) => {
    const colours = await pageColours(scheme, theme);
    expect(colours.bg).toBe(bg);
    expect(colours.text).not.toBe(colours.bg);
  });
});
