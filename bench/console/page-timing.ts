import type { Page } from 'playwright-core';

/**
 * Milliseconds from asking the page to navigate to `url` until the button named `button` is there:
 * what a person waits before the screen can be used, Playwright's round trips included (the
 * baseline pays them too).
 */
export async function usableAfterMs(page: Page, url: string, button: string): Promise<number> {
  const started = performance.now();
  await page.goto(url);
  await page.getByRole('button', { name: button }).waitFor();
  return performance.now() - started;
}

export interface RowsTiming {
  /** Milliseconds from the end of the answer's body to the moment the rows were all in the DOM. */
  renderMs: number;
  /** `[data-entry]` rows in the page when they were read. */
  rows: number;
}

/**
 * How long after its data arrived a page put `rows` `[data-entry]` rows in its DOM, both moments
 * read from the page's own clock: `open` does what makes the page ask for the data (a click), and
 * the answer is the last resource whose URL contains `answerUrlPart` (its `responseEnd`). The
 * network and the server are left out; only the page's own work after the answer counts.
 */
export async function rowsAfterAnswer(page: Page, rows: number, answerUrlPart: string, open: () => Promise<void>): Promise<RowsTiming> {
  // Runs in the page: when the rows are all there, note the time.
  await page.evaluate((wanted) => {
    const browser: any = globalThis;
    browser.rowsRenderedAt = undefined;
    new browser.MutationObserver((_changes: unknown, observer: any) => {
      if (browser.document.querySelectorAll('[data-entry]').length >= wanted) {
        browser.rowsRenderedAt = browser.performance.now();
        observer.disconnect();
      }
    }).observe(browser.document.body, { subtree: true, childList: true });
  }, rows);
  await open();
  await page.waitForFunction(() => (globalThis as any).rowsRenderedAt !== undefined);
  const timing = await page.evaluate((part) => {
    const browser: any = globalThis;
    const answer = browser.performance.getEntriesByType('resource').filter((e: any) => e.name.includes(part)).pop();
    if (answer === undefined) return undefined;
    return { answered: answer.responseEnd as number, rendered: browser.rowsRenderedAt as number, rows: browser.document.querySelectorAll('[data-entry]').length as number };
  }, answerUrlPart);
  if (timing === undefined) throw new Error(`the page made no request to ${answerUrlPart}`);
  return { renderMs: timing.rendered - timing.answered, rows: timing.rows };
}
