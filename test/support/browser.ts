import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { chromiumPath, launchChromium } from '../../bench/console/chromium.js';

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
  context: BrowserContext;
  close(): Promise<void>;
}

/** A fresh browser profile, headless, with nothing running in the background. */
export async function launchBrowser(): Promise<TestBrowser> {
  if (chromiumPath() === undefined) throw new Error('ATRIUM_TEST_REQUIRE_BROWSER=1 but no Chromium was found (CHROMIUM_PATH or /usr/bin/chromium)');
  const browser = await launchChromium({ acceptDownloads: true });
  // A step that cannot happen fails within seconds with what it waited for, not at the test's timeout.
  browser.context.setDefaultTimeout(10_000);
  return browser;
}

/** Fails on any serious or critical accessibility violation axe-core finds on the page. */
export async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const grave = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => `${n.target.join(' ')} ${n.html.slice(0, 160)}`).join(', ')})`);
  expect(grave).toEqual([]);
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

/** Where the tests keep the screenshots docs/console.md shows. */
export const SCREENSHOTS = path.resolve('docs/console');
