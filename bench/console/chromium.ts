import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** The Chromium the console is driven in: CHROMIUM_PATH when set, else Debian's package; undefined when neither is there. */
export function chromiumPath(): string | undefined {
  const candidate = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  return fs.existsSync(candidate) ? candidate : undefined;
}

/** Headless, with nothing running in the background that could land in a measurement. */
const ARGS = ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export interface LaunchedChromium {
  context: BrowserContext;
  /** Closes the browser and removes its profile. */
  close(): Promise<void>;
}

/** Chromium on a fresh profile of its own, removed on close; the browser tests and the bench both launch it here. */
export async function launchChromium(options: { acceptDownloads?: boolean } = {}): Promise<LaunchedChromium> {
  const executablePath = chromiumPath();
  if (executablePath === undefined) throw new Error('no Chromium was found (CHROMIUM_PATH or /usr/bin/chromium)');
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath,
      headless: true,
      acceptDownloads: options.acceptDownloads ?? false,
      viewport: { width: 1280, height: 800 },
      timeout: 20_000,
      args: ARGS,
    });
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
