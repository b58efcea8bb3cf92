import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, launchBrowser, type TestBrowser } from '../../support/browser.js';
import { ADMIN, startConsoleServer, type ConsoleServer } from './console-server.js';

const WEB = path.resolve('dist/web');
const ENTRIES = 10_000;

/** The scripts the console's page loads before it can do anything: its entry and what it preloads. */
function initialScripts(): string[] {
  const html = fs.readFileSync(path.join(WEB, 'index.html'), 'utf8');
  return [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="\/([^"]+\.js)"/g)].map((m) => m[1] as string);
}

describe('the web console budget', () => {
  it('loads at most 200 kB of gzipped JavaScript before the first screen', () => {
    const scripts = initialScripts();
    expect(scripts.length).toBeGreaterThan(0);
    const gzipped = scripts.reduce((sum, file) => sum + gzipSync(fs.readFileSync(path.join(WEB, file)), { level: 9 }).length, 0);
    process.stdout.write(`console initial JavaScript: ${(gzipped / 1024).toFixed(1)} kB gzipped\n`);
    expect(gzipped).toBeLessThanOrEqual(200 * 1024);
  });
});

describe.runIf(browserAvailable())('the web console budget in Chromium [sqlite]', () => {
  let site: ConsoleServer;
  let browser: TestBrowser;
  beforeAll(async () => {
    [site, browser] = await Promise.all([startConsoleServer('sqlite'), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await site?.stop();
  });

  // The two timings below are printed, not asserted: a wall-clock limit fails whenever the machine
  // is busy (1.4 s for the sign-in screen during a full test run on 2 cores), and speed is the
  // bench's to judge (docs/benchmarks.md, "The web console").
  it('shows a usable sign-in screen on loopback, and reports how long it took', async () => {
    const page = await browser.context.newPage();
    const started = Date.now();
    await page.goto(`${site.baseUrl}/sign-in`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    process.stdout.write(`console sign-in screen usable after ${Date.now() - started} ms (budget 1 s)\n`);
    await page.close();
  });

  it(`renders the first page of a folder of ${ENTRIES.toLocaleString('en')} entries, and reports how long after the answer`, async () => {
    await site.admin('POST', '/folders/Big', { mkdir_parents: true });
    let next = 0;
    const worker = async () => {
      while (next < ENTRIES) {
        const n = next++;
        await site.admin('POST', `/folders/Big/entry-${String(n).padStart(5, '0')}`, {});
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));

    const page = await browser.context.newPage();
    await page.goto(`${site.baseUrl}/`);
    await page.getByLabel('Username').fill(ADMIN.username);
    await page.getByRole('textbox', { name: 'Password' }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('table').getByRole('link', { name: 'Big' }).waitFor();
    // Runs in the page: when the first page's rows are all there, note the time.
    await page.evaluate(() => {
      const browser: any = globalThis;
      new browser.MutationObserver((_changes: unknown, observer: any) => {
        if (browser.document.querySelectorAll('[data-entry]').length >= 200) {
          browser.firstPageRenderedAt = browser.performance.now();
          observer.disconnect();
        }
      }).observe(browser.document.body, { subtree: true, childList: true });
    });
    await page.getByRole('table').getByRole('link', { name: 'Big' }).click();
    await page.locator('[data-entry="entry-00199"]').waitFor();
    const timing = await page.evaluate(() => {
      const browser: any = globalThis;
      const listing = browser.performance.getEntriesByType('resource').filter((e: any) => /\/api\/rest\/v1\/folders\/Big\?/.test(e.name)).pop();
      return { answered: listing.responseEnd as number, rendered: browser.firstPageRenderedAt as number, rows: browser.document.querySelectorAll('[data-entry]').length as number };
    });
    const renderMs = timing.rendered - timing.answered;
    process.stdout.write(`console folder of ${ENTRIES} entries: first page (${timing.rows} rows) rendered ${renderMs.toFixed(0)} ms after the answer (budget 300 ms)\n`);
    expect(timing.rows).toBe(200);
    expect(renderMs).toBeGreaterThanOrEqual(0);
    await page.close();
  }, 180_000);
});
