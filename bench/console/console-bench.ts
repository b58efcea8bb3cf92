import type { Page } from 'playwright-core';
import { undoOnInterrupt } from '../cleanup.js';
import type { ResultRow } from '../run-bench.js';
import { BENCH_PASSWORD, type SeededSite } from '../seed/seed-site.js';
import { seedSmallSite } from '../seed/small-site.js';
import { bigFolder } from '../seed/grant-plan.js';
import { ATRIUM_MAIN, startServer, type ServerProcess } from '../server-process.js';
import { sqliteStore } from '../stores.js';
import { BASELINE_BUTTON, BASELINE_ROWS_PATH, startBaselinePage, type BaselinePage } from './baseline-page.js';
import { chromiumPath, launchChromium, type LaunchedChromium } from './chromium.js';
import { rowsAfterAnswer, usableAfterMs } from './page-timing.js';
import { pageTiming, type PageTiming } from './page-figures.js';

export interface ConsoleBenchContext {
  /** Rounds of each measurement that are kept. */
  rounds: number;
  /** Rounds before those, not kept: Chromium's own first-time work (its caches, compiled code) falls there. */
  warmupRounds: number;
  /** Entries in the folder whose first page is rendered. */
  folderSize: number;
  atriumEnv: Record<string, string>;
  nodeArgs: readonly string[];
}

/** Names of the rows, which the report pairs: each console figure with its baseline. */
export const CONSOLE_ROWS = {
  blankUsable: 'baseline: static page with one button, usable after navigation',
  signInUsable: 'sign-in screen usable after navigation',
  plainRows: 'baseline: the same first page as a plain table, rendered after the answer',
  firstPage: 'first page (200 rows) rendered after the answer',
  previewText: 'a text file of 1,000 lines previewed, from the click on its name to its lines shown',
  search: 'a part of a name searched in the folder and below, from the last keystroke to the result shown (the console waits 300 ms for typing to stop)',
} as const;

const API = '/api/rest/v1';
/** The console's page of a folder (web/src/api/files.ts), asked for the same way. */
const PAGE_SIZE = 200;
const FIRST_PAGE_QUERY = `per_page=${PAGE_SIZE}&sort_by[path]=asc`;
const BUDGETS = { signIn: 1_000, firstPage: 300, previewText: 500, search: 800 } as const;
/** The file the preview and the search find, first in the large folder's listing. */
const NOTES = 'a-bench-notes.txt';
const NOTES_LINES = 1_000;

/**
 * The web console in Chromium, next to a page that does the least possible, in the same browser
 * and run: the sign-in screen against a static page with one button (navigation until the button
 * is there, as a first visit: no cache, no cookies), then the first page of a large folder against the
 * same rows put in a plain table by a few lines of script (from the end of the answer to the last
 * row in the DOM). Rounds alternate baseline and console, so the machine's other work falls on both.
 */
export async function consoleBench(ctx: ConsoleBenchContext, record: (row: ResultRow) => void, progress: (line: string) => void, note: (text: string) => void): Promise<void> {
  const rows = consoleRows(ctx);
  if (chromiumPath() === undefined) {
    const why = 'no Chromium: set CHROMIUM_PATH or install the chromium package';
    note(`THE WEB CONSOLE WAS NOT MEASURED: ${why}.`);
    for (const row of Object.values(rows)) record({ ...row, skipped: why });
    return;
  }
  const store = await sqliteStore();
  const forget = undoOnInterrupt(() => store.destroy());
  let server: ServerProcess | undefined;
  let baseline: BaselinePage | undefined;
  let browser: LaunchedChromium | undefined;
  try {
    const site = await seedSmallSite(store, [ctx.folderSize]);
    server = await startServer(ATRIUM_MAIN, { ...store.atriumEnv, ...ctx.atriumEnv }, '/health', ctx.nodeArgs);
    await putNotes(server.baseUrl, site, ctx.folderSize);
    baseline = await startBaselinePage(await firstPageJson(server.baseUrl, site, ctx.folderSize));
    browser = await launchChromium();
    const samples = await measureRounds(browser.context.newPage.bind(browser.context), server.baseUrl, baseline.url, site, ctx, progress);
    const timing = (name: Measured, baselineTiming?: PageTiming) => pageTiming(samples[name], ctx.warmupRounds, baselineTiming);
    const baselines = { blankUsable: timing('blankUsable'), plainRows: timing('plainRows') };
    record({ ...rows.blankUsable, pageTiming: baselines.blankUsable });
    record({ ...rows.signInUsable, pageTiming: timing('signInUsable', baselines.blankUsable) });
    record({ ...rows.plainRows, pageTiming: baselines.plainRows });
    record({ ...rows.firstPage, pageTiming: timing('firstPage', baselines.plainRows) });
    record({ ...rows.previewText, pageTiming: timing('previewText') });
    record({ ...rows.search, pageTiming: timing('search') });
  } catch (error) {
    // The rest of the bench goes on; the report shows what went wrong here.
    record({ kind: 'console', database: 'sqlite', scenario: 'console section', error: firstLine(error) });
  } finally {
    await browser?.close();
    await baseline?.stop();
    await server?.stop();
    forget();
    await store.destroy();
  }
}

type Measured = keyof typeof CONSOLE_ROWS;

function consoleRows(ctx: ConsoleBenchContext): Record<Measured, ResultRow> {
  const entries = ctx.folderSize.toLocaleString('en');
  return {
    blankUsable: { kind: 'console', database: 'baseline', scenario: CONSOLE_ROWS.blankUsable },
    signInUsable: { kind: 'console', database: 'sqlite', scenario: CONSOLE_ROWS.signInUsable, budgetMs: BUDGETS.signIn },
    plainRows: { kind: 'console', database: 'baseline', scenario: CONSOLE_ROWS.plainRows, folderSize: ctx.folderSize },
    firstPage: { kind: 'console', database: 'sqlite', scenario: `${CONSOLE_ROWS.firstPage} (folder of ${entries})`, folderSize: ctx.folderSize, budgetMs: BUDGETS.firstPage },
    previewText: { kind: 'console', database: 'sqlite', scenario: CONSOLE_ROWS.previewText, budgetMs: BUDGETS.previewText },
    search: { kind: 'console', database: 'sqlite', scenario: `${CONSOLE_ROWS.search} (folder of ${entries})`, folderSize: ctx.folderSize, budgetMs: BUDGETS.search },
  };
}

/** A text file of NOTES_LINES lines in the large folder, uploaded as the Workspace Administrator. */
async function putNotes(baseUrl: string, site: SeededSite, folderSize: number): Promise<void> {
  const text = Array.from({ length: NOTES_LINES }, (_, n) => `line ${n + 1} of the bench's notes, long enough to wrap on a narrow screen`).join('\n');
  const response = await fetch(`${baseUrl}${API}/files/${bigFolder(folderSize)}/${NOTES}`, { method: 'PUT', headers: { 'X-ServiceAPI-Key': site.workspaceAdmin.key }, body: text });
  if (!response.ok) throw new Error(`PUT /files/${bigFolder(folderSize)}/${NOTES} answered ${response.status} ${(await response.text()).slice(0, 200)}`);
}

/** The first page of the large folder as the API gives it to the console: the baseline page's rows. */
async function firstPageJson(baseUrl: string, site: SeededSite, folderSize: number): Promise<string> {
  const response = await fetch(`${baseUrl}${API}/folders/${bigFolder(folderSize)}?${FIRST_PAGE_QUERY}`, { headers: { 'X-ServiceAPI-Key': site.workspaceAdmin.key } });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET /folders/${bigFolder(folderSize)} answered ${response.status} ${text.slice(0, 200)}`);
  const entries = JSON.parse(text) as unknown[];
  if (entries.length !== Math.min(PAGE_SIZE, folderSize)) throw new Error(`the folder's first page holds ${entries.length} entries`);
  return text;
}

async function measureRounds(newPage: () => Promise<Page>, atriumUrl: string, baselineUrl: string, site: SeededSite, ctx: ConsoleBenchContext, progress: (line: string) => void): Promise<Record<Measured, number[]>> {
  const samples: Record<Measured, number[]> = { blankUsable: [], signInUsable: [], plainRows: [], firstPage: [], previewText: [], search: [] };
  const rows = Math.min(PAGE_SIZE, ctx.folderSize);
  const folder = bigFolder(ctx.folderSize);
  for (let round = 1 - ctx.warmupRounds; round <= ctx.rounds; round += 1) {
    const opened = await inFreshPage(newPage, 'previewText', async (page) => previewAndSearch(page, atriumUrl, site, folder));
    const figures: Record<Measured, number> = {
      previewText: opened.previewMs,
      search: opened.searchMs,
      blankUsable: await inFreshPage(newPage, 'blankUsable', async (page) => usableAfterMs(page, baselineUrl, BASELINE_BUTTON)),
      signInUsable: await inFreshPage(newPage, 'signInUsable', async (page) => usableAfterMs(page, `${atriumUrl}/sign-in`, 'Sign in')),
      plainRows: await inFreshPage(newPage, 'plainRows', async (page) => {
        await usableAfterMs(page, baselineUrl, BASELINE_BUTTON);
        const timing = await rowsAfterAnswer(page, rows, BASELINE_ROWS_PATH, () => page.getByRole('button', { name: BASELINE_BUTTON }).click());
        return checkedRows(timing, rows);
      }),
      firstPage: await inFreshPage(newPage, 'firstPage', async (page) => {
        await signIn(page, atriumUrl, site);
        const link = page.getByRole('table').getByRole('link', { name: folder, exact: true });
        await link.waitFor();
        const timing = await rowsAfterAnswer(page, rows, `${API}/folders/${folder}?`, () => link.click());
        return checkedRows(timing, rows);
      }),
    };
    if (round < 1) continue;
    for (const name of Object.keys(samples) as Measured[]) samples[name].push(figures[name]);
    progress(`console, round ${round}: sign-in ${figures.signInUsable.toFixed(0)} ms (baseline ${figures.blankUsable.toFixed(0)} ms), ` +
      `first page ${figures.firstPage.toFixed(0)} ms after the answer (baseline ${figures.plainRows.toFixed(0)} ms), ` +
      `preview ${figures.previewText.toFixed(0)} ms, search ${figures.search.toFixed(0)} ms`);
  }
  return samples;
}

/**
 * A new tab with the browser's cache and cookies emptied (each round loads the page as a first
 * visit would, signed out), closed afterwards. A failure names the measurement.
 */
async function inFreshPage<T>(newPage: () => Promise<Page>, name: Measured, measure: (page: Page) => Promise<T>): Promise<T> {
  const page = await newPage();
  try {
    // Through DevTools: Playwright has no call that empties the cache.
    const devtools = await page.context().newCDPSession(page);
    await devtools.send('Network.clearBrowserCache');
    await devtools.send('Network.clearBrowserCookies');
    await devtools.detach();
    return await measure(page);
  } catch (error) {
    throw new Error(`${CONSOLE_ROWS[name]}: ${firstLine(error)}`);
  } finally {
    await page.close();
  }
}

/**
 * In the large folder as the Workspace Administrator: the notes opened by a click on their name
 * until their last line is in the preview, then, with the preview closed, a part of their name
 * typed into the search box until the result names them. Both from the person's gesture, the
 * server's answer included: what they wait.
 */
async function previewAndSearch(page: Page, atriumUrl: string, site: SeededSite, folder: string): Promise<{ previewMs: number; searchMs: number }> {
  await signIn(page, atriumUrl, site);
  await page.getByRole('table').getByRole('link', { name: folder, exact: true }).click();
  const notes = page.getByRole('table').getByRole('button', { name: NOTES, exact: true });
  await notes.waitFor();
  const previewMs = await gestureToElementMs(page, 'click', `[data-testid="text-lines"]`, `line ${NOTES_LINES} of the bench's notes`, () => notes.click());
  await page.keyboard.press('Escape');
  await page.getByTestId('text-lines').waitFor({ state: 'detached' });
  const search = page.getByRole('searchbox', { name: 'Search names in this folder and below' });
  const searchMs = await gestureToElementMs(page, 'input', `[data-result$="/${NOTES}"]`, NOTES, () => search.fill('bench-not'));
  return { previewMs, searchMs };
}

/**
 * Milliseconds on the page's own clock from the last `event` (a click, a keystroke's input) to the
 * moment an element matching `selector` holds `text`: what the person waits, with neither
 * Playwright's round trips nor its polling counted.
 */
async function gestureToElementMs(page: Page, event: 'click' | 'input', selector: string, text: string, gesture: () => Promise<void>): Promise<number> {
  await page.evaluate(({ event, selector, text }) => {
    const browser: any = globalThis;
    browser.benchGestureAt = undefined;
    browser.benchShownAt = undefined;
    browser.document.addEventListener(event, () => { browser.benchGestureAt = browser.performance.now(); }, { capture: true });
    new browser.MutationObserver((_changes: unknown, observer: any) => {
      const element = browser.document.querySelector(selector);
      if (element !== null && String(element.textContent).includes(text)) {
        browser.benchShownAt = browser.performance.now();
        observer.disconnect();
      }
    }).observe(browser.document.body, { subtree: true, childList: true, characterData: true });
  }, { event, selector, text });
  await gesture();
  await page.waitForFunction(() => (globalThis as any).benchShownAt !== undefined);
  const moments = await page.evaluate(() => ({ from: (globalThis as any).benchGestureAt as number | undefined, to: (globalThis as any).benchShownAt as number }));
  if (moments.from === undefined) throw new Error(`the page saw no ${event}`);
  return moments.to - moments.from;
}

/** Signs in to the console as the Workspace Administrator, who lands on the Workspace's root. */
async function signIn(page: Page, atriumUrl: string, site: SeededSite): Promise<void> {
  await page.goto(`${atriumUrl}/`);
  await page.getByLabel('Username').fill(site.workspaceAdmin.username);
  await page.getByRole('textbox', { name: 'Password' }).fill(BENCH_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

function checkedRows(timing: { renderMs: number; rows: number }, rows: number): number {
  if (timing.rows !== rows) throw new Error(`${timing.rows} rows in the page, not ${rows}`);
  if (timing.renderMs < 0) throw new Error(`the rows were there ${-timing.renderMs} ms before the answer ended`);
  return timing.renderMs;
}

/** Playwright's messages go on with a call log, coloured for a terminal: the report keeps the first line. */
function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split('\n')[0] ?? message).trim();
}
