import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions } from 'playwright-core';

/** The Chromium the console is driven in: CHROMIUM_PATH when set, else Debian's package; undefined when neither is there. */
export function chromiumPath(): string | undefined {
  const candidate = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  return fs.existsSync(candidate) ? candidate : undefined;
}

/** Headless (Playwright adds --headless), with nothing running in the background that could land in a measurement. */
const ARGS = ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** The window every page is opened in: the bench's timings and the docs' pictures are taken at this size. */
export const PAGE_OPTIONS = { viewport: { width: 1280, height: 800 } } as const satisfies BrowserContextOptions;

function launchOptions() {
  const executablePath = chromiumPath();
  if (executablePath === undefined) throw new Error('no Chromium was found (CHROMIUM_PATH or /usr/bin/chromium)');
  return { executablePath, headless: true, timeout: 20_000, args: ARGS };
}

/**
 * What Playwright 1.65 starts Chromium without (its chromiumSwitches.ts). Chromium keeps only the
 * last --disable-features it is given, so a list of one's own must repeat Playwright's
 * (microsoft/playwright#36658); keepsPlaywrightsFeatures notices when an upgrade adds to it.
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync', 'DestroyProfileOnBrowserClose', 'HttpsUpgrades', 'HttpsFirstBalancedModeAutoEnable', 'LensOverlay',
  'MediaRouter', 'PaintHolding', 'ThirdPartyStoragePartitioning', 'AvoidCorsURLLoaderRestartOnRedirect', 'TcpPortRandomizationWin',
  'OptimizationHints', 'NetworkTimeServiceQuerying', 'AimEnabled', 'PreconnectToSearch', 'msForceBrowserSignIn', 'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Chromium 156 loads the address bar's suggestion popup, two pages of its own
 * (chrome://omnibox-popup.top-chrome), into every window it opens, and headless never shows them:
 * measured here, half the processor time of opening a page of the console (about 0.4 of 0.85 s).
 * Puppeteer starts Chromium without them too.
 */
const UNSHOWN_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];
const DISABLED_FEATURES = [...PLAYWRIGHT_DISABLED_FEATURES, ...UNSHOWN_FEATURES];

/**
 * One Chromium whose contexts the caller opens, each a fresh profile of its own (cookies, storage
 * and cache start empty and are gone when it closes): the browser tests open one a test, the
 * screenshots one a tour. A launch costs about as much processor time as a context and its first
 * page together, so it happens once.
 */
export async function launchChromiumBrowser(): Promise<Browser> {
  const options = launchOptions();
  const browser = await chromium.launch({ ...options, args: [...options.args, `--disable-features=${DISABLED_FEATURES.join(',')}`] });
  try {
    await keepsPlaywrightsFeatures(browser);
  } catch (error) {
    await browser.close();
    throw error;
  }
  return browser;
}

/** Fails when Playwright starts Chromium without a feature the list above does not repeat: after an upgrade, a new one. */
async function keepsPlaywrightsFeatures(browser: Browser): Promise<void> {
  const session = await browser.newBrowserCDPSession();
  const { commandLine } = await session.send('SystemInfo.getInfo');
  await session.detach();
  const given = (commandLine.match(/--disable-features=\S*/g) ?? []).flatMap((flag) => flag.slice('--disable-features='.length).split(','));
  const missing = given.filter((feature) => feature !== '' && !DISABLED_FEATURES.includes(feature));
  if (missing.length > 0) throw new Error(`Playwright starts Chromium without ${missing.join(', ')}: add them to PLAYWRIGHT_DISABLED_FEATURES in bench/console/chromium.ts`);
}

export interface LaunchedChromium {
  context: BrowserContext;
  /** Closes the browser and removes its profile. */
  close(): Promise<void>;
}

/** Chromium on a fresh profile of its own, removed on close: one profile for all the bench's pages. */
export async function launchChromium(): Promise<LaunchedChromium> {
  const settings = launchOptions();
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, { ...settings, ...PAGE_OPTIONS });
  } catch (error) {
    fs.rmSync(profile, { recursive: true, force: true });
    throw error;
  }
  return {
    context,
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}
