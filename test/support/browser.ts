import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContext, FileChooser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { chromiumPath, launchChromiumBrowser, PAGE_OPTIONS } from '../../bench/console/chromium.js';
import { settled } from '../../bench/console/page-settled.js';

/**
 * The Chromium the console's browser tests drive is the bench's (CHROMIUM_PATH when set, else
 * Debian's package). Where there is none, the tests are skipped loudly, unless
 * ATRIUM_TEST_REQUIRE_BROWSER=1 (CI), where that is a failure.
 */
export { chromiumPath };

export const browserRequired = process.env.ATRIUM_TEST_REQUIRE_BROWSER === '1';

/** True when the browser tests should run; says loudly why not when they cannot. */
export function browserAvailable(): boolean {
  if (chromiumPath() !== undefined) return true;
  if (browserRequired) return true; // the launch fails, and so does the run
  process.stderr.write('\nSKIPPED: the web console browser tests need Chromium (set CHROMIUM_PATH or install the chromium package).\n\n');
  return false;
}

export interface TestBrowser {
  /** The running test's own context: a fresh profile (no cookies, no storage), closed after the test. */
  readonly context: BrowserContext;
}

/**
 * One Chromium for the tests of the block this is called in (a whole file, called at its top),
 * launched before the first and closed after the last, and a fresh context for each test: a test
 * starts signed out with nothing stored, as in a new browser, and Chromium is launched once. The
 * tabs of a test (pages of its one context) share the session cookie, as a person's do.
 */
export function chromiumPerTest(): TestBrowser {
  let launched: Promise<Browser> | undefined;
  let context: BrowserContext | undefined;
  beforeAll(() => {
    if (chromiumPath() === undefined) {
      if (!browserRequired) return; // the tests are skipped, and browserAvailable() said so
      throw new Error('ATRIUM_TEST_REQUIRE_BROWSER=1 but no Chromium was found (CHROMIUM_PATH or /usr/bin/chromium)');
    }
    // Not awaited here: Chromium starts while the file's servers do; the first test waits for it,
    // and fails with the launch's error if there was one.
    launched = launchChromiumBrowser();
    launched.catch(() => undefined);
  });
  afterAll(async () => {
    await (await launched?.catch(() => undefined))?.close();
  });
  beforeEach(async () => {
    const browser = await launched;
    context = await browser?.newContext({ ...PAGE_OPTIONS, acceptDownloads: true });
    // A step that cannot happen fails within seconds with what it waited for, not at the test's timeout.
    context?.setDefaultTimeout(10_000);
  });
  afterEach(async () => {
    await context?.close();
    context = undefined;
  });
  return {
    get context() {
      if (context === undefined) throw new Error('the browser context exists only while a test runs');
      return context;
    },
  };
}

/** The states of the console this test file has checked with axe already. */
const checked = new Set<string>();

/**
 * Fails on any serious or critical accessibility violation axe-core finds on the page, once it is
 * still (a dialog fading in is measured at its final contrast). `state` names the screen and what
 * is open on it: axe costs most of a second a page, so a state this file has checked already (the
 * same screen in the run on the other database) is not checked again.
 */
export async function expectAccessible(page: Page, state: string): Promise<void> {
  if (checked.has(state)) return;
  await settled(page);
  const results = await new AxeBuilder({ page }).analyze();
  const grave = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => `${n.target.join(' ')} ${n.html.slice(0, 160)}`).join(', ')})`);
  expect(grave).toEqual([]);
  checked.add(state);
}

/** Records anything the page logs as an error, and any script error, for a test to assert none. */
export function pageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`script error: ${error.message}`));
  page.on('console', (message) => {
    // A refused request (401 while signed out, a 404 asked on purpose) is logged by Chromium as an error.
    if (message.type() === 'error' && !/Failed to load resource/.test(message.text())) problems.push(message.text());
  });
  return problems;
}

/**
 * Follows the page's requests from now on; `quiet()` waits until none has been in flight for a
 * while. A test that ends the session behind the page's back (ages it in the database) waits for
 * this first: a request still on its way would come back 401 and sign the page out before the
 * step the test means to take.
 */
export function requestsOf(page: Page): { quiet(): Promise<void> } {
  let inFlight = 0;
  let lastChange = Date.now();
  const change = (by: number) => {
    inFlight += by;
    lastChange = Date.now();
  };
  page.on('request', () => change(1));
  page.on('requestfinished', () => change(-1));
  page.on('requestfailed', () => change(-1));
  return {
    // 300 ms without a request: the time a response's render takes to start the next one, with room.
    quiet: () => expect.poll(() => inFlight === 0 && Date.now() - lastChange >= 300, { interval: 50, timeout: 10_000 }).toBe(true),
  };
}

/**
 * Clicks the button that opens the file picker and answers it with `files`. The click is awaited
 * on its own, so that a click that could not happen says so, and the picker then gets the time a
 * loaded machine needs to report it (Chromium reports it after the page's own click handler ran).
 */
export async function chooseFiles(page: Page, button: string, files: Parameters<FileChooser['setFiles']>[0]): Promise<FileChooser> {
  const chooser = page.waitForEvent('filechooser', { timeout: 30_000 });
  await page.getByRole('button', { name: button }).click();
  const picked = await chooser;
  await picked.setFiles(files);
  return picked;
}
