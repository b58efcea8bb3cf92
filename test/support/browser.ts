import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContext, FileChooser, Page, Request } from 'playwright-core';
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
 * `ignoreHTTPSErrors`: the pages of a test's own HTTPS server (an identity provider with a
 * throwaway certificate) open without the browser's warning.
 */
export function chromiumPerTest(contextOptions: { ignoreHTTPSErrors?: boolean } = {}): TestBrowser {
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
    context = await browser?.newContext({ ...PAGE_OPTIONS, acceptDownloads: true, ...contextOptions });
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

/**
 * The states of the console each test file has checked with axe already, by file: a worker runs
 * file after file with its modules loaded once.
 */
const checked = new Set<string>();

/**
 * Fails on any serious or critical accessibility violation axe-core finds on the page, once it is
 * still (a dialog fading in is measured at its final contrast), in both of the console's themes:
 * every rule in the one the page shows, then, in the other (the console follows the system's, so
 * the check switches the emulated `prefers-color-scheme`), the rules a theme can change: colours
 * alone differ between them, so names, roles, labels and structure are the same in both and are
 * checked once. The page is left in the first theme. `state` names the screen and what is open on
 * it: a state this file has checked already (the same screen in the run on the other database) is
 * not checked again.
 */
export async function expectAccessible(page: Page, state: string): Promise<void> {
  const key = `${expect.getState().testPath ?? ''}: ${state}`;
  if (checked.has(key)) return;
  // Runs in the page, where the DOM exists; this file is compiled for Node.js, hence `any`.
  const shown = (await page.evaluate(() => (globalThis as any).matchMedia('(prefers-color-scheme: dark)').matches as boolean)) ? 'dark' : 'light';
  const schemes = shown === 'dark' ? (['dark', 'light'] as const) : (['light', 'dark'] as const);
  const grave: string[] = [];
  for (const [index, scheme] of schemes.entries()) {
    await showColorScheme(page, scheme);
    grave.push(...(await graveViolations(page, index === 0 ? undefined : THEME_RULES)).map((violation) => `${scheme} theme: ${violation}`));
  }
  await showColorScheme(page, shown);
  expect(grave).toEqual([]);
  checked.add(key);
}

/** Shows the page in `scheme`, once the console (Mantine) has switched to it and nothing moves. */
async function showColorScheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  // A page without Mantine (none has it yet) has no attribute to wait for.
  await page.waitForFunction((wanted) => {
    const attribute = (globalThis as any).document.documentElement.getAttribute('data-mantine-color-scheme') as string | null;
    return attribute === null || attribute === wanted;
  }, scheme);
  await settled(page);
}

/** The axe rules whose verdict a colour theme can change: contrast, and links told apart from text by colour. */
const THEME_RULES = ['color-contrast', 'link-in-text-block'];

/** axe's serious and critical violations on the page as it is (of `rules` alone, when given), one line each. */
async function graveViolations(page: Page, rules?: string[]): Promise<string[]> {
  // Legacy mode runs axe.run() in the page itself. The default (axe.runPartial() in each frame,
  // then axe.finishRun() in a blank page it opens) cost 700 ms a check on a page of 200 elements,
  // most of it that extra page; this way 280 ms. What it gives up is frames of another origin,
  // and the console has none: its previews are the user's own files, not the console. Results
  // are asked for violations alone, which spares axe describing every node that passed.
  const builder = new AxeBuilder({ page }).setLegacyMode().options({ resultTypes: ['violations'] });
  const results = await (rules === undefined ? builder : builder.withRules(rules)).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => `${n.target.join(' ')} ${n.html.slice(0, 160)}`).join(', ')})`);
}

/**
 * What on the page scrolls sideways: the page itself when it is wider than the window, and any
 * box in it whose content is wider than the box and may be scrolled (a table's scroll frame). On
 * a phone a person reaches none of what lies past the edge without a sideways swipe, so a screen
 * that fits has none. Measured once nothing on the page moves.
 */
export async function sidewaysScrollers(page: Page): Promise<string[]> {
  // Measured at rest: after a resize the layout slides to its new place (the navigation's room
  // closing), and mid-slide the page is wider than it will be.
  await settled(page);
  // Runs in the page, where the DOM exists; this file is compiled for Node.js, hence `any`.
  return page.evaluate(() => {
    const view: any = globalThis;
    const found: string[] = [];
    const root = view.document.documentElement;
    const describe = (element: any) => `${element.tagName.toLowerCase()}.${String(element.className).split(' ')[0]} "${String(element.textContent).slice(0, 40)}"`;
    if (root.scrollWidth > view.innerWidth) {
      // Named by what sticks out: the innermost element past the window's right edge.
      const past = [...view.document.body.querySelectorAll('*')].filter((element: any) => element.getBoundingClientRect().right > view.innerWidth + 0.5);
      const innermost = past.filter((element: any) => !past.some((other: any) => other !== element && element.contains(other)));
      found.push(`the page (${root.scrollWidth} px in a window of ${view.innerWidth}): ${innermost.slice(0, 3).map(describe).join('; ')}`);
    }
    for (const element of view.document.body.querySelectorAll('*')) {
      if (element.scrollWidth <= element.clientWidth + 1 || element.getClientRects().length === 0) continue;
      const overflow = view.getComputedStyle(element).overflowX;
      if (overflow !== 'auto' && overflow !== 'scroll') continue;
      found.push(`${describe(element)} (${element.scrollWidth} px in ${element.clientWidth})`);
    }
    return found;
  });
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
  // A set, not a count: a request the page started before this was called finishes after it, and
  // a count would go below zero and never read "none in flight" again.
  const inFlight = new Set<Request>();
  let lastChange = Date.now();
  page.on('request', (request) => {
    inFlight.add(request);
    lastChange = Date.now();
  });
  const ended = (request: Request) => {
    inFlight.delete(request);
    lastChange = Date.now();
  };
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  return {
    // 300 ms without a request: the time a response's render takes to start the next one, with room.
    quiet: () => expect.poll(() => inFlight.size === 0 && Date.now() - lastChange >= 300, { interval: 50, timeout: 10_000 }).toBe(true),
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
