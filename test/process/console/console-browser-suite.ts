import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import type { Locator, Page } from 'playwright-core';
import { Client as SshClient } from 'ssh2';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { browserAvailable, chooseFiles, chromiumPerTest, expectAccessible, pageProblems, requestsOf, sidewaysScrollers, type TestBrowser } from '../../support/browser.js';
import { PAGE_OPTIONS } from '../../../bench/console/chromium.js';
import { unzip } from '../../bundles/public-link-support.js';
import { ADMIN, KEY_FOR_TESTS, startConsoleServer, type ConsoleServer } from './console-server.js';
import { itOnSqliteAlone } from './console-databases.js';

const MiB = 1024 * 1024;
const HOSTILE = '<img src=x onerror=alert(1)>.txt';
const DANA = { username: 'dana', password: 'dana has a long password' };

/** The bytes of the large test file: not all alike, the same in the page and here. */
function bigFileBytes(size: number): Buffer {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i += 4) bytes.writeUInt32LE(Math.imul(i, 2654435761) >>> 0, i);
  return bytes;
}

async function signInAs(page: Page, who: { username: string; password: string }) {
  await page.getByLabel('Username').fill(who.username);
  await page.getByRole('textbox', { name: 'Password' }).fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Drops files made in the page on the folder listing, as a person dragging them from the desktop would. */
async function dropFiles(page: Page, files: { name: string; text?: string; generatedSize?: number }[]) {
  // Runs in the page, where the DOM exists; this file is compiled for Node.js, hence `browser: any`.
  const dataTransfer = await page.evaluateHandle((list) => {
    const browser: any = globalThis;
    const transfer = new browser.DataTransfer();
    for (const file of list) {
      let content: unknown;
      if (file.generatedSize !== undefined) {
        const bytes = new Uint8Array(file.generatedSize);
        const view = new DataView(bytes.buffer);
        for (let i = 0; i < file.generatedSize; i += 4) view.setUint32(i, Math.imul(i, 2654435761) >>> 0, true);
        content = bytes;
      } else {
        content = file.text ?? '';
      }
      transfer.items.add(new browser.File([content], file.name));
    }
    return transfer;
  }, files);
  await page.dispatchEvent('[data-testid=drop-zone]', 'dragover', { dataTransfer });
  await page.dispatchEvent('[data-testid=drop-zone]', 'drop', { dataTransfer });
}

/**
 * Moves the row `row` into `folder` with its menu's Move to…: the folder typed, or browsed to in
 * the picker and chosen; the row leaves the listing.
 */
async function moveEntry(page: Page, row: string, folder: string, how: { via: 'typed' } | { via: 'picker'; open: string[]; check(page: Page, state: string): Promise<void> }) {
  await page.getByRole('button', { name: `Actions for ${row}` }).click();
  await page.getByRole('menu', { name: `Actions for ${row}` }).getByRole('menuitem', { name: 'Move to…' }).click();
  const move = page.getByRole('dialog', { name: `Move ${row}` });
  if (how.via === 'typed') {
    await move.getByLabel('Move to folder').fill(folder);
  } else {
    // The picker opens at the folder the row is in; `open` walks down from there.
    await move.getByRole('button', { name: 'Browse…' }).click();
    for (const segment of how.open) await move.getByRole('button', { name: `Open ${segment}` }).click();
    await move.getByRole('button', { name: `Choose ${folder.slice(folder.lastIndexOf('/') + 1)}` }).click();
    expect(await move.getByLabel('Move to folder').inputValue()).toBe(folder);
    await how.check(page, 'the move dialog, a folder picked');
  }
  await move.getByRole('button', { name: 'Move here' }).click();
  await page.locator(`[data-entry="${row}"]`).waitFor({ state: 'detached' });
}

async function downloadedBytes(page: Page, row: string): Promise<Buffer> {
  await page.getByRole('button', { name: `Actions for ${row}` }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('menu', { name: `Actions for ${row}` }).getByRole('menuitem', { name: 'Download' }).click()]);
  return fs.readFileSync(await download.path());
}

/** The first line a TCP server at host:port sends (an SSH server's identification string). */
function sshGreeting(host: string, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    socket.setEncoding('latin1');
    let received = '';
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (received.includes('\n')) {
        socket.destroy();
        resolve(received.split(/\r?\n/)[0] ?? '');
      }
    });
    socket.on('error', reject);
  });
}

/**
 * Writes `bytes` to `path` over SFTP as a user signing in with their password, as an SFTP client
 * overwrites a file: opened for writing with truncation (ssh2's writeFile opens with `w`).
 */
function sftpWrite(port: number, user: { username: string; password: string }, path: string, bytes: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const client = new SshClient();
    client.on('error', reject);
    client.once('ready', () => {
      client.sftp((error, sftp) => {
        if (error) return reject(error);
        sftp.writeFile(path, bytes, (written) => {
          client.end();
          if (written) reject(written);
          else resolve();
        });
      });
    });
    client.connect({ host: '127.0.0.1', port, username: user.username, password: user.password, readyTimeout: 10_000 });
  });
}

/**
 * On a narrow screen: the row's ⋯ menu and its `item` drawn wholly inside the window, and the page
 * not scrolling sideways once the menu is closed again.
 */
async function expectRowMenuOnScreen(page: Page, row: string, item: string): Promise<void> {
  const menu = page.getByRole('button', { name: `Actions for ${row}` });
  await expectInsideViewport(page, menu, `the actions of ${row}'s row`);
  await menu.click();
  await expectInsideViewport(page, page.getByRole('menu', { name: `Actions for ${row}` }).getByRole('menuitem', { name: item }), `${item} in ${row}'s row menu`);
  await page.keyboard.press('Escape');
  await expectNoSidewaysScroll(page);
}

/** Fails unless the element is drawn wholly inside the window: nothing of it cut off or off-screen. */
async function expectInsideViewport(page: Page, locator: Locator, what: string): Promise<void> {
  await locator.waitFor();
  const window = page.viewportSize() ?? { width: 0, height: 0 };
  let last: unknown;
  // Polled: a drawer slides in, a menu fades in; what counts is where it comes to rest.
  await expect.poll(async () => {
    const box = await locator.boundingBox();
    last = box;
    return box !== null && box.x >= 0 && box.y >= 0 && box.x + box.width <= window.width + 0.5 && box.y + box.height <= window.height + 0.5;
  }, { message: `${what}: ${JSON.stringify(last)} in ${window.width}x${window.height}`, timeout: 3000 }).toBe(true);
}

/** Fails when anything scrolls sideways: the page, wider than the window, or a table in its frame. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  expect(await sidewaysScrollers(page), 'nothing scrolls sideways').toEqual([]);
}

/**
 * The console's tests in Chromium on one database, for a test file to call at its top: one file a
 * database, so that the two run at once. One Chromium for the file; each test in a context of its own.
 */
export function describeConsoleInChromium(database: 'sqlite' | 'postgres'): void {
  const onServer = database === 'sqlite' || inject('postgresMode') === 'server';
  if (!onServer) process.stderr.write('\nSKIPPED: the web console on PostgreSQL needs a PostgreSQL server (none reachable).\n\n');
  const runs = browserAvailable() && onServer;
  const browser = chromiumPerTest();
  describe.runIf(runs)(`the web console in Chromium [${database}]`, () => {
    defineConsoleTests(database, browser);
  });
}

function defineConsoleTests(database: 'sqlite' | 'postgres', browser: TestBrowser): void {
  // The console's pages are the same on either database: axe checks each state once, in the SQLite run.
  const accessible = database === 'sqlite' ? expectAccessible : async () => undefined;
  // Flows that only show what the API answers run in the SQLite run alone (console-databases.ts).
  const itOnSqlite = itOnSqliteAlone(database);
  let site: ConsoleServer;

  beforeAll(async () => {
    site = await startConsoleServer(database, { sftp: true });
    const dana = await site.admin('POST', '/users', { username: DANA.username, password: DANA.password });
    await site.admin('POST', '/folders/Team', { mkdir_parents: true });
    await site.admin('POST', '/folders/Archive', { mkdir_parents: true });
    await site.admin('POST', '/permissions', { path: 'Team', user_id: dana.id, permission: 'full' });
    await site.admin('POST', '/permissions', { path: 'Archive', user_id: dana.id, permission: 'readonly' });
  }, 60_000);
  afterAll(async () => {
    await site?.stop();
  });

  /**
   * Forgets the Workspace `who` last chose, as their own session asks the server to: the next
   * sign-in of theirs, in any test, opens in their home Workspace again.
   */
  async function forgetWorkspaceChoice(who: { username: string; password: string }): Promise<void> {
    const signedIn = await fetch(`${site.baseUrl}/api/rest/v1/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(who) });
    const session = ((await signedIn.json()) as { id: string }).id;
    const forgotten = await fetch(`${site.baseUrl}/api/rest/v1/user_preferences`, {
      method: 'PATCH', headers: { 'X-ServiceAPI-Auth': session, 'content-type': 'application/json' }, body: JSON.stringify({ last_workspace_id: null }),
    });
    expect(forgotten.status).toBe(200);
  }

  it('signs in, goes back to the address asked for, and signs out for good', async () => {
    const page = await browser.context.newPage();
    const problems = pageProblems(page);
    await page.goto(`${site.baseUrl}/files/Team`);
    await expect.poll(() => page.url()).toContain('/sign-in?next=%2Ffiles%2FTeam');
    await accessible(page, 'sign-in, asked for another address');

    await signInAs(page, { username: DANA.username, password: 'not the password at all' });
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('The username or password is not valid.');
    await signInAs(page, { username: 'nobody-by-this-name', password: 'not the password at all' });
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('The username or password is not valid.');

    await signInAs(page, DANA);
    await page.getByRole('navigation', { name: 'Folder path' }).getByText('Team').waitFor();
    expect(new URL(page.url()).pathname).toBe('/files/Team');
    // The session is in an HttpOnly cookie: nothing a script could read, nothing in storage or in the URL.
    const cookies = await browser.context.cookies(site.baseUrl + '/api/rest/v1');
    const session = cookies.find((c) => c.name === 'atrium_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    const storage = await page.evaluate(() => {
      const browser: any = globalThis;
      return { cookie: browser.document.cookie, local: JSON.stringify({ ...browser.localStorage }), session: JSON.stringify({ ...browser.sessionStorage }) };
    });
    expect(storage.cookie).toBe('');
    expect(storage.local).not.toContain(session?.value);
    expect(storage.session).not.toContain(session?.value);
    expect(page.url()).not.toContain(session?.value);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    const after = await fetch(`${site.baseUrl}/api/rest/v1/folders/`, { headers: { cookie: `atrium_session=${session?.value}`, 'X-Atrium-Console': '1' } });
    expect(((await after.json()) as any).type).toBe('not-authenticated/invalid-session');
    expect(problems).toEqual([]);
    await page.close();
  });

  itOnSqlite('a new tab and a reopened one are signed in by the session cookie; signing out in one tab signs out the others', async () => {
    const first = await browser.context.newPage();
    const problems = pageProblems(first);
    await first.goto(`${site.baseUrl}/files`);
    await signInAs(first, DANA);
    await first.getByRole('table').getByRole('link', { name: 'Team' }).waitFor();

    // A second tab: no profile of its own, but the cookie's session is asked who it is.
    const second = await browser.context.newPage();
    await second.goto(`${site.baseUrl}/files/Team`);
    await second.getByRole('navigation', { name: 'Folder path' }).getByText('Team').waitFor();
    expect(new URL(second.url()).pathname).toBe('/files/Team');
    expect(await second.getByRole('button', { name: 'Sign in' }).count()).toBe(0);
    expect(await second.getByText(DANA.username, { exact: true }).count()).toBe(1);
    // The tab is closed and opened again: still signed in.
    await second.close();
    const reopened = await browser.context.newPage();
    await reopened.goto(`${site.baseUrl}/account`);
    await reopened.getByRole('heading', { name: 'My account' }).waitFor();
    await reopened.getByTestId('own-user-id').getByText(DANA.username).waitFor();

    // Signing out in one tab: the other goes to sign-in at once, and its cookie no longer acts.
    await reopened.getByRole('button', { name: 'Sign out' }).click();
    await reopened.getByRole('button', { name: 'Sign in' }).waitFor();
    await first.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await first.getByRole('status').textContent()).toBe('You signed out in another tab.');
    await accessible(first, 'sign-in, after signing out in another tab');
    // A new tab after signing out asks to sign in.
    const third = await browser.context.newPage();
    await third.goto(`${site.baseUrl}/files/Team`);
    await expect.poll(() => third.url()).toContain('/sign-in?next=%2Ffiles%2FTeam');
    await third.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(problems).toEqual([]);
    await Promise.all([first.close(), reopened.close(), third.close()]);
  });

  itOnSqlite('the header and navigation: nothing cut at 1280 px, a drawer at 390 px; row actions in a menu on a phone; an unknown address is a page of its own', async () => {
    const page = await browser.context.newPage();
    const problems = pageProblems(page);
    await page.goto(`${site.baseUrl}/files`);
    await signInAs(page, ADMIN);
    const nav = page.getByRole('navigation', { name: 'Main' });
    const everyPlace = ['Files', 'Trash', 'Shared links', 'History', 'Users', 'Groups', 'Partners', 'Automations', 'Workspaces', 'Site settings', 'My account'];
    await nav.getByRole('link', { name: 'Site settings' }).waitFor();
    expect(await nav.getByRole('link').allTextContents()).toEqual(everyPlace);
    for (const name of everyPlace) await expectInsideViewport(page, nav.getByRole('link', { name, exact: true }), `${name} at 1280 px`);
    await expectInsideViewport(page, page.getByRole('button', { name: 'Sign out' }), 'Sign out at 1280 px');
    await expectInsideViewport(page, page.getByLabel(/Current Workspace|^Workspace$/), 'the Workspace at 1280 px');
    expect(await page.getByRole('button', { name: 'Open navigation' }).isVisible()).toBe(false);
    await expectNoSidewaysScroll(page);
    await accessible(page, 'header and navigation, 1280 px');

    await page.setViewportSize({ width: 390, height: 844 });
    const burger = page.getByRole('button', { name: 'Open navigation' });
    await burger.waitFor();
    // The navigation slides out of view as the page narrows; wait for the slide to end.
    await expect.poll(() => nav.getByRole('link', { name: 'Users' }).isVisible()).toBe(false);
    for (const [control, what] of [[burger, 'the burger'], [page.getByRole('button', { name: 'Sign out' }), 'Sign out'], [page.getByLabel(/Current Workspace|^Workspace$/), 'the Workspace']] as const) {
      await expectInsideViewport(page, control, `${what} at 390 px`);
    }
    await expectNoSidewaysScroll(page);
    await burger.click();
    for (const name of everyPlace) await expectInsideViewport(page, nav.getByRole('link', { name, exact: true }), `${name} in the drawer at 390 px`);
    await accessible(page, 'navigation drawer, 390 px');
    await nav.getByRole('link', { name: 'Users' }).click();
    await page.getByRole('heading', { name: 'Users' }).waitFor();
    await expect.poll(() => nav.getByRole('link', { name: 'Users' }).isVisible()).toBe(false);
    // A row's actions are one menu at the row's end, on the screen, not past its edge.
    await expectRowMenuOnScreen(page, 'dana', 'Delete');
    await accessible(page, 'users, 390 px');

    // The trash on a phone: where and when, and the actions in the row's menu, nothing past the edge.
    const phoneNote = await fetch(`${site.baseUrl}/api/rest/v1/files/phone-note.txt`, { method: 'PUT', headers: { 'X-ServiceAPI-Key': KEY_FOR_TESTS }, body: 'a note' });
    expect(phoneNote.ok).toBe(true);
    await site.admin('DELETE', '/files/phone-note.txt');
    await page.goto(`${site.baseUrl}/trash`);
    await expectRowMenuOnScreen(page, 'phone-note.txt', 'Restore');
    await accessible(page, 'the trash, 390 px');

    // An address with no screen says so, and stays the address asked for.
    await page.goto(`${site.baseUrl}/files-typo/Reports`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/files-typo/Reports');
    await page.getByText('/files-typo/Reports', { exact: true }).waitFor();
    await accessible(page, 'page not found, 390 px');
    // The address it echoes is text, whatever it holds: no element made of it.
    await page.goto(`${site.baseUrl}/${HOSTILE}`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(await page.locator('[data-page="not-found"]').textContent()).toContain('onerror=alert(1)');
    expect(await page.locator('[data-page="not-found"] img').count()).toBe(0);
    await page.getByRole('link', { name: 'your files' }).click();
    await page.getByRole('table').getByRole('link', { name: 'Team' }).waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });

  it('works with files: folders, uploads by drag and drop with progress, access in words, download, rename, move, delete', async () => {
    const page = await browser.context.newPage();
    const problems = pageProblems(page);
    await page.goto(`${site.baseUrl}/`);
    await signInAs(page, DANA);
    const table = page.getByRole('table');
    await table.getByRole('link', { name: 'Team' }).waitFor();
    // The person's access in words, a sentence in the tooltip.
    expect(await page.locator('[data-entry="Archive"] td').nth(5).textContent()).toBe('Browse, open');
    expect(await page.locator('[data-entry="Team"] td').nth(5).textContent()).toBe('Browse, open, add, delete');
    expect(await page.locator('[data-entry="Team"] td').nth(5).getAttribute('title'))
      .toBe('You may see what is in it, open and download what is in it, add files and folders to it and delete, rename or move it.');
    // No administration for a regular user.
    expect(await page.getByRole('link', { name: /administration|users|groups|workspaces|site settings/i }).count()).toBe(0);

    await table.getByRole('link', { name: 'Team' }).click();
    await page.getByText('This folder is empty.').waitFor();
    await page.getByRole('button', { name: 'New folder' }).click();
    await page.getByLabel('Folder name').fill('Plans');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await table.getByRole('link', { name: 'Plans' }).waitFor();

    // Slow the link so the 20 MB file's progress can be watched moving.
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 8 * MiB });
    await page.evaluate(() => {
      const browser: any = globalThis;
      const seen: number[] = [];
      browser.bigProgress = seen;
      new browser.MutationObserver(() => {
        const bar = browser.document.querySelector('[aria-label="Upload of big.bin"]');
        const value = Number(bar?.getAttribute('aria-valuenow'));
        if (bar !== null && seen[seen.length - 1] !== value) seen.push(value);
      }).observe(browser.document.body, { subtree: true, childList: true, attributes: true });
    });
    await dropFiles(page, [
      { name: 'notes.txt', text: 'first notes\n' },
      { name: 'big.bin', generatedSize: 20 * MiB },
      { name: HOSTILE, text: 'hostile' },
    ]);
    await page.locator('[data-upload="big.bin"]').getByText('Uploading').waitFor();
    await page.locator(`[data-entry="${HOSTILE.replace(/"/g, '\\"')}"]`).waitFor({ timeout: 60_000 });
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    const progress: number[] = await page.evaluate(() => (globalThis as any).bigProgress);
    expect(progress.some((p) => p > 0 && p < 100)).toBe(true);
    expect(progress[progress.length - 1]).toBe(100);
    for (const name of ['notes.txt', 'big.bin']) await page.locator(`[data-entry="${name}"]`).waitFor();

    // The hostile name is text: no image element, no script ran.
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.getByText(HOSTILE, { exact: true }).count()).toBeGreaterThan(0);
    expect(await page.locator('[data-entry="big.bin"] td').nth(3).textContent()).toBe('20.0 MiB');
    expect(await page.locator('[data-entry="notes.txt"] td').nth(5).textContent()).toBe('Open, add, delete');
    await accessible(page, 'a folder, its uploads finished');
    await page.getByRole('button', { name: 'Clear finished' }).click();
    await page.emulateMedia({ colorScheme: 'dark' });
    await accessible(page, 'a folder, dark theme');
    await page.emulateMedia({ colorScheme: 'light' });

    // Keyboard only: the row's actions open with Enter and their items take the focus.
    await page.getByRole('button', { name: 'Actions for notes.txt' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menu', { name: 'Actions for notes.txt' }).waitFor();
    const focusedRole = () => page.evaluate(() => (globalThis as any).document.activeElement?.getAttribute('role'));
    await expect.poll(focusedRole).toBe('menuitem');
    await page.keyboard.press('ArrowDown');
    await expect.poll(focusedRole).toBe('menuitem');
    await page.keyboard.press('Escape');
    await page.getByRole('menu', { name: 'Actions for notes.txt' }).waitFor({ state: 'hidden' });

    expect((await downloadedBytes(page, 'notes.txt')).toString()).toBe('first notes\n');
    const big = await downloadedBytes(page, 'big.bin');
    expect(createHash('sha256').update(big).digest('hex')).toBe(createHash('sha256').update(bigFileBytes(20 * MiB)).digest('hex'));

    await page.getByRole('button', { name: 'Actions for notes.txt' }).click();
    await page.getByRole('menu', { name: 'Actions for notes.txt' }).getByRole('menuitem', { name: 'Rename' }).click();
    await page.getByLabel('New name').fill('notes-2026.txt');
    await page.getByRole('dialog', { name: 'Rename' }).getByRole('button', { name: 'Rename' }).click();
    await page.locator('[data-entry="notes-2026.txt"]').waitFor();
    await moveEntry(page, 'notes-2026.txt', 'Team/Plans', { via: 'typed' });
    await table.getByRole('link', { name: 'Plans' }).click();
    await page.locator('[data-entry="notes-2026.txt"]').waitFor();
    await page.getByRole('navigation', { name: 'Folder path' }).getByRole('link', { name: 'Team' }).click();

    await page.getByRole('button', { name: `Actions for ${HOSTILE}` }).click();
    await page.getByRole('menu', { name: `Actions for ${HOSTILE}` }).getByRole('menuitem', { name: 'Delete' }).click();
    // The site's retention is one of the rules every user reads (GET /site/policies), administrator or not.
    await expect.poll(() => page.getByRole('dialog').textContent()).toContain('It goes to the trash for 30 days, where it can be restored.');
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.locator('[data-entry="big.bin"]').waitFor();
    await expect.poll(() => page.getByText(HOSTILE, { exact: true }).count()).toBe(0);
    const listing = await site.admin('GET', '/folders/Team');
    expect(listing.map((e: any) => e.display_name).sort()).toEqual(['Plans', 'big.bin']);

    await page.getByRole('button', { name: 'Actions for big.bin' }).click();
    await page.getByRole('menu', { name: 'Actions for big.bin' }).getByRole('menuitem', { name: 'Copy' }).click();
    await page.getByLabel(/Copy to/).fill('Team/Plans/big-copy.bin');
    await page.getByRole('dialog', { name: 'Copy' }).getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('dialog', { name: 'Copy' }).waitFor({ state: 'detached' });
    const plans = await site.admin('GET', '/folders/Team/Plans');
    expect(plans.map((e: any) => e.display_name).sort()).toEqual(['big-copy.bin', 'notes-2026.txt']);

    // A read-only folder offers no upload and no new folder, and says why.
    await page.getByRole('navigation', { name: 'Folder path' }).getByRole('link', { name: 'All files' }).click();
    await page.getByRole('table').getByRole('link', { name: 'Archive' }).click();
    await page.getByText('This folder is empty.').waitFor();
    // The folder's letters come in their own request, which may answer after the listing does.
    await expect.poll(() => page.getByRole('button', { name: 'Upload files' }).isDisabled()).toBe(true);
    await expect.poll(() => page.getByRole('button', { name: 'New folder' }).isDisabled()).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  itOnSqlite('files: uploads by the picker, an upload cancelled, a folder of more than one page, a folder that does not exist', async () => {
    await site.admin('POST', '/folders/Many', { mkdir_parents: true });
    for (let i = 0; i < 230; i += 1) await site.admin('POST', `/folders/Many/sub-${String(i).padStart(3, '0')}`, {});
    await site.admin('POST', '/permissions', { path: 'Many', user_id: (await site.admin('GET', '/users?filter[username]=dana'))[0].id, permission: 'readonly' });
    const page = await browser.context.newPage();
    const problems = pageProblems(page);
    await page.goto(`${site.baseUrl}/files/Team`);
    await signInAs(page, DANA);
    await page.getByRole('navigation', { name: 'Folder path' }).getByText('Team').waitFor();

    // The picker takes several files at once.
    const chooser = await chooseFiles(page, 'Upload files', [
      { name: 'picked-1.txt', mimeType: 'text/plain', buffer: Buffer.from('one') },
      { name: 'picked-2.txt', mimeType: 'text/plain', buffer: Buffer.from('two') },
    ]);
    expect(chooser.isMultiple()).toBe(true);
    for (const name of ['picked-1.txt', 'picked-2.txt']) await page.locator(`[data-entry="${name}"]`).waitFor();

    // A slow upload is cancelled: it stops, says so, and leaves no file behind.
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 256 * 1024 });
    await chooseFiles(page, 'Upload files', [{ name: 'slow.bin', mimeType: 'application/octet-stream', buffer: bigFileBytes(6 * MiB) }]);
    await page.locator('[data-upload="slow.bin"]').getByText('Uploading').waitFor();
    await page.getByRole('button', { name: 'Cancel upload of slow.bin' }).click();
    await page.locator('[data-upload="slow.bin"]').getByText('Cancelled').waitFor();
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    const team = await site.admin('GET', '/folders/Team');
    expect(team.map((e: any) => e.display_name)).not.toContain('slow.bin');
    expect(team.map((e: any) => e.display_name)).toEqual(expect.arrayContaining(['picked-1.txt', 'picked-2.txt']));

    // More than a page: the first 200 entries, then the rest when the end of the list is reached.
    await page.goto(`${site.baseUrl}/files/Many`);
    await page.locator('[data-entry="sub-199"]').waitFor();
    expect(await page.locator('tbody tr').count()).toBe(200);
    await page.getByRole('button', { name: 'Show more' }).scrollIntoViewIfNeeded();
    await page.locator('[data-entry="sub-229"]').waitFor();
    expect(await page.locator('tbody tr').count()).toBe(230);

    // A folder that is not there (or not for this user) says so, takes nothing, and offers the way up.
    await page.goto(`${site.baseUrl}/files/No/Such/Folder`);
    await page.getByRole('alert').getByText('This folder does not exist').waitFor();
    expect(await page.getByRole('button', { name: 'Upload files' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'New folder' }).isDisabled()).toBe(true);
    await accessible(page, 'a folder that does not exist');
    await page.getByRole('button', { name: 'Go up' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/files/No/Such');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('sorts a folder by its column headers, both ways, from the keyboard too, and keeps the order across a reload', async () => {
    await site.admin('POST', '/folders/Sizes/Sub', { mkdir_parents: true });
    for (const [name, size] of [['medium.txt', 2_000], ['large.txt', 30_000], ['small.txt', 10], ['tiny.txt', 10]] as const) {
      const put = await fetch(`${site.baseUrl}/api/rest/v1/files/Sizes/${name}`, { method: 'PUT', headers: { 'X-ServiceAPI-Key': KEY_FOR_TESTS }, body: 'x'.repeat(size) });
      expect(put.status).toBe(201);
    }
    const page = await browser.context.newPage();
    const problems = pageProblems(page);
    await page.goto(`${site.baseUrl}/files/Sizes`);
    await signInAs(page, ADMIN);
    await page.locator('[data-entry="tiny.txt"]').waitFor();
    const shown = () => page.locator('tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-entry')));
    expect(await shown()).toEqual(['Sub', 'large.txt', 'medium.txt', 'small.txt', 'tiny.txt']);
    const name = page.getByRole('columnheader', { name: 'Name' });
    const size = page.getByRole('columnheader', { name: 'Size' });
    expect(await name.getAttribute('aria-sort')).toBe('ascending');
    expect(await size.getAttribute('aria-sort')).toBe('none');

    // Smallest first; folders stay first; equal sizes in name order.
    await size.getByRole('button').click();
    await expect.poll(shown).toEqual(['Sub', 'small.txt', 'tiny.txt', 'medium.txt', 'large.txt']);
    expect(await size.getAttribute('aria-sort')).toBe('ascending');
    expect(await name.getAttribute('aria-sort')).toBe('none');
    expect(new URL(page.url()).search).toBe('?sort=size&dir=asc');

    // From the keyboard: the header is a button; Enter reverses the order (ties too).
    await size.getByRole('button').focus();
    await page.keyboard.press('Enter');
    await expect.poll(shown).toEqual(['Sub', 'large.txt', 'medium.txt', 'tiny.txt', 'small.txt']);
    expect(await size.getAttribute('aria-sort')).toBe('descending');
    expect(new URL(page.url()).search).toBe('?sort=size&dir=desc');
    await accessible(page, 'a folder sorted by size, largest first');

    // The address keeps the order: a reload lists the same way.
    await page.reload();
    await page.locator('[data-entry="tiny.txt"]').waitFor();
    expect(await shown()).toEqual(['Sub', 'large.txt', 'medium.txt', 'tiny.txt', 'small.txt']);
    expect(await page.getByRole('columnheader', { name: 'Size' }).getAttribute('aria-sort')).toBe('descending');

    // Back to names, A to Z, and a bare address.
    await page.getByRole('columnheader', { name: 'Name' }).getByRole('button').click();
    await expect.poll(shown).toEqual(['Sub', 'large.txt', 'medium.txt', 'small.txt', 'tiny.txt']);
    expect(new URL(page.url()).search).toBe('');

    // On a phone the Modified column has no room: the order is one choice above the list, in words.
    await page.setViewportSize({ width: 390, height: 844 });
    const order = page.getByLabel('Order');
    expect(await order.inputValue()).toBe('path:asc');
    await order.selectOption({ label: 'Largest first' });
    await expect.poll(shown).toEqual(['Sub', 'large.txt', 'medium.txt', 'tiny.txt', 'small.txt']);
    expect(new URL(page.url()).search).toBe('?sort=size&dir=desc');
    await order.selectOption({ label: 'Name, A to Z' });
    await expect.poll(shown).toEqual(['Sub', 'large.txt', 'medium.txt', 'small.txt', 'tiny.txt']);
    expect(new URL(page.url()).search).toBe('');
    await expectNoSidewaysScroll(page);
    await accessible(page, 'a folder on a phone, its order to choose');
    expect(problems).toEqual([]);
    await page.close();
  });

  itOnSqlite('opens files: a picture, a PDF in the browser\'s viewer, a text with line numbers; moves with the picker and by dragging; downloads a folder and a file as one ZIP', async () => {
    const danaId = (await site.admin('GET', '/users?filter[username]=dana'))[0].id;
    await site.admin('POST', '/folders/Media/Sub', { mkdir_parents: true });
    await site.admin('POST', '/permissions', { path: 'Media', user_id: danaId, permission: 'full' });
    const files: Record<string, Buffer> = {
      'dot.png': Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'),
      'paper.pdf': Buffer.from('%PDF-1.1\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj '
        + '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n'),
      'readme.txt': Buffer.from('first line\nsecond line\nthird line\n'),
      'one.txt': Buffer.from('one'),
      'two.txt': Buffer.from('two'),
    };
    for (const [name, bytes] of Object.entries(files)) {
      const put = await fetch(`${site.baseUrl}/api/rest/v1/files/Media/${name}`, { method: 'PUT', headers: { 'X-ServiceAPI-Key': KEY_FOR_TESTS }, body: bytes });
      expect(put.status).toBe(201);
    }
    const page = await browser.context.newPage();
    const problems = pageProblems(page);
    await page.goto(`${site.baseUrl}/files/Media`);
    await signInAs(page, DANA);
    await page.locator('[data-entry="two.txt"]').waitFor();

    // A picture: drawn from the signed link, served inline.
    await page.getByRole('button', { name: 'dot.png', exact: true }).click();
    const preview = page.getByRole('dialog', { name: 'dot.png' });
    await expect.poll(() => preview.getByRole('img', { name: 'dot.png' }).evaluate((img: any) => img.complete && img.naturalWidth)).toBe(1);
    expect(new URL(page.url()).searchParams.get('open')).toBe('dot.png');
    await preview.getByRole('button', { name: 'Copy link' }).waitFor();
    expect(await preview.getByRole('link', { name: 'Download' }).getAttribute('href')).toMatch(/\/api\/rest\/v1\/downloads\//);
    await page.keyboard.press('Escape');
    await preview.waitFor({ state: 'detached' });
    expect(new URL(page.url()).searchParams.get('open')).toBeNull();

    // A PDF in the browser's own viewer: the frame's answer is the PDF, inline, sandboxed.
    const [frameAnswer] = await Promise.all([
      page.waitForResponse((r) => r.url().includes('/downloads/') && r.url().includes('disposition=inline') && r.request().method() === 'GET'),
      page.getByRole('button', { name: 'paper.pdf', exact: true }).click(),
    ]);
    expect(frameAnswer.status()).toBe(200);
    const frameHeaders = await frameAnswer.allHeaders();
    expect(frameHeaders['content-type']).toBe('application/pdf');
    expect(frameHeaders['content-disposition']).toMatch(/^inline;/);
    expect(frameHeaders['content-security-policy']).toBe('sandbox');
    await page.getByRole('dialog', { name: 'paper.pdf' }).locator('iframe[title="paper.pdf (PDF)"]').waitFor();
    await page.keyboard.press('Escape');

    // Text, numbered line by line; the address opens it again (what Copy link hands on).
    await page.getByRole('button', { name: 'readme.txt', exact: true }).click();
    await expect.poll(() => page.getByTestId('text-lines').textContent()).toBe('first line\nsecond line\nthird line\n');
    expect(await page.getByTestId('line-numbers').textContent()).toBe('1\n2\n3');
    await accessible(page, 'a text file previewed');
    await page.reload();
    await expect.poll(() => page.getByTestId('text-lines').textContent()).toBe('first line\nsecond line\nthird line\n');
    await page.keyboard.press('Escape');

    // Moved with the folder picker (browsed to and chosen), dragged back up onto the breadcrumb, and down onto the folder's row.
    await moveEntry(page, 'one.txt', 'Media/Sub', { via: 'picker', open: ['Sub'], check: accessible });
    await page.getByRole('table').getByRole('link', { name: 'Sub' }).click();
    await page.locator('[data-entry="one.txt"]').dragTo(page.getByRole('navigation', { name: 'Folder path' }).getByRole('link', { name: 'Media' }));
    await page.getByText('This folder is empty.').waitFor();
    await page.getByRole('navigation', { name: 'Folder path' }).getByRole('link', { name: 'Media' }).click();
    await page.locator('[data-entry="one.txt"]').dragTo(page.locator('[data-entry="Sub"]'));
    await page.locator('[data-entry="one.txt"]').waitFor({ state: 'detached' });
    expect((await site.admin('GET', '/folders/Media/Sub')).map((e: any) => e.display_name)).toEqual(['one.txt']);

    // A folder and a file ticked: one ZIP of both, each file with its bytes.
    await page.getByRole('checkbox', { name: 'Select Sub' }).check();
    await page.getByRole('checkbox', { name: 'Select two.txt' }).check();
    const bar = page.getByRole('region', { name: 'Selected items' });
    await bar.getByText('2 items selected').waitFor();
    await accessible(page, 'two rows selected');
    const [download] = await Promise.all([page.waitForEvent('download'), bar.getByRole('button', { name: 'Download as ZIP' }).click()]);
    expect(download.suggestedFilename()).toBe('Media.zip');
    expect(Object.fromEntries(await unzip(fs.readFileSync(await download.path())))).toEqual({ 'Sub/': '', 'Sub/one.txt': 'one', 'two.txt': 'two' });
    expect(problems).toEqual([]);
    await page.close();
  });

  itOnSqlite('nothing lost by a click: a file deleted over WebDAV restored from the trash, a file overwritten over SFTP given its earlier version back, a name found among 10,000 entries', async () => {
    const danaId = (await site.admin('GET', '/users?filter[username]=dana'))[0].id;
    await site.admin('POST', '/folders/Recover/Many', { mkdir_parents: true });
    await site.admin('POST', '/permissions', { path: 'Recover', user_id: danaId, permission: 'full' });
    const put = async (path: string, bytes: Buffer) => {
      const answer = await fetch(`${site.baseUrl}/api/rest/v1/files/${path}`, { method: 'PUT', headers: { 'X-ServiceAPI-Key': KEY_FOR_TESTS }, body: bytes });
      expect(answer.ok).toBe(true);
    };
    /** The file's bytes as the REST API serves them, through its signed link. */
    const bytesOf = async (path: string) => Buffer.from(await (await fetch((await site.admin('GET', `/files/${path}`)).download_uri)).arrayBuffer());
    const report = Buffer.from('the report, as it was before it was deleted\n');
    await put('Recover/report.txt', report);
    // Deleted over WebDAV by dana, with her password: the console's trash is every door's.
    const deleted = await fetch(`${site.baseUrl}/dav/Recover/report.txt`, {
      method: 'DELETE', headers: { Authorization: `Basic ${Buffer.from(`${DANA.username}:${DANA.password}`).toString('base64')}` },
    });
    expect(deleted.status).toBe(204);
    // Its place taken meanwhile: the restore lands beside it, and says so.
    await put('Recover/report.txt', Buffer.from('a new report'));
    await put('Recover/scrap.txt', Buffer.from('scrap'));
    await site.admin('DELETE', '/files/Recover/scrap.txt');
    await put('Recover/plan.txt', Buffer.from('first plan'));
    // Overwritten over SFTP by dana: the first plan is kept as a version, whichever door wrote over it.
    const { sftp_port: sftpPort } = await (await fetch(`${site.baseUrl}/api/rest/v1/connection_details`, { headers: { 'X-ServiceAPI-Key': KEY_FOR_TESTS } })).json() as { sftp_port: number };
    await sftpWrite(sftpPort, DANA, '/Recover/plan.txt', Buffer.from('the second plan'));
    expect((await bytesOf('Recover/plan.txt')).toString()).toBe('the second plan');
    // A deletion whose name is markup, at the root (so the listing of Recover below stays as it is).
    await put(encodeURIComponent(HOSTILE), Buffer.from('hostile'));
    await site.admin('DELETE', `/files/${encodeURIComponent(HOSTILE)}`);
    await site.addFolders('Recover/Many', Array.from({ length: 10_000 }, (_, n) => `entry-${String(n).padStart(5, '0')}`));
    await put('Recover/Many/entry-04321/quarterly-summary.txt', Buffer.from('found it\n'));

    const page = await browser.context.newPage();
    const problems = pageProblems(page);
    await page.goto(`${site.baseUrl}/trash`);
    await signInAs(page, ADMIN);
    const row = page.locator('[data-trash="Recover/report.txt"]');
    await row.waitFor();
    // Who deleted it, by name (an administrator may list users), and what it held.
    await expect.poll(() => row.locator('td').nth(2).textContent()).toBe(DANA.username);
    expect(await row.locator('td').nth(3).textContent()).toBe(`${report.length} B`);
    // The name that is markup is shown as text: no element made of it.
    const hostileRow = page.locator(`[data-trash="${HOSTILE}"]`);
    expect(await hostileRow.locator('td').first().textContent()).toContain(HOSTILE);
    expect(await hostileRow.locator('img').count()).toBe(0);
    await accessible(page, 'the trash');
    // Deleted with the site-wide key: no one to name. Purged for good, after saying it cannot be undone.
    const scrap = page.locator('[data-trash="Recover/scrap.txt"]');
    expect(await scrap.locator('td').nth(2).textContent()).toBe('a site key or automation');
    await scrap.getByRole('button', { name: 'Delete Recover/scrap.txt for good' }).click();
    const purge = page.getByRole('dialog', { name: 'Delete file for good' });
    expect(await purge.textContent()).toContain('This one cannot be undone.');
    await purge.getByRole('button', { name: 'Delete for good' }).click();
    await scrap.waitFor({ state: 'detached' });
    expect((await site.admin('GET', '/trash?path=Recover')).map((e: any) => e.path)).toEqual(['Recover/report.txt']);
    await row.getByRole('button', { name: 'Restore Recover/report.txt' }).click();
    const restored = page.getByRole('status').filter({ hasText: 'Restored to' });
    await expect.poll(() => restored.textContent()).toBe('Restored to Recover/report (1).txt. Something else now stands where it was, so it was restored beside it under this new name.');
    expect(await bytesOf('Recover/report%20(1).txt')).toEqual(report);
    await row.waitFor({ state: 'detached' });
    await restored.getByRole('link', { name: 'Recover/report (1).txt' }).click();
    await expect.poll(() => page.getByTestId('text-lines').textContent()).toBe(report.toString());
    await page.keyboard.press('Escape');

    // The earlier content of an overwritten file, restored in its Versions dialog; its row shows the size it has again.
    await page.locator('[data-entry="plan.txt"] td').nth(3).getByText('15 B').waitFor();
    await page.getByRole('button', { name: 'Actions for plan.txt' }).click();
    await page.getByRole('menu', { name: 'Actions for plan.txt' }).getByRole('menuitem', { name: 'Versions' }).click();
    const versions = page.getByRole('dialog', { name: 'Versions of plan.txt' });
    await versions.locator('[data-version]').first().waitFor();
    expect(await versions.locator('[data-version] td').nth(1).textContent()).toBe('10 B');
    await accessible(page, 'the versions of a file');
    await versions.getByRole('button', { name: /^Restore the version written/ }).click();
    await versions.getByRole('status').waitFor();
    expect((await bytesOf('Recover/plan.txt')).toString()).toBe('first plan');
    await page.locator('[data-entry="plan.txt"] td').nth(3).getByText('10 B').waitFor();
    // What the restore replaced is now the newest version.
    await expect.poll(() => versions.locator('[data-version] td').nth(1).textContent()).toBe('15 B');
    await page.keyboard.press('Escape');

    // An administrator's delete confirmation says for how long the trash keeps it.
    await page.getByRole('button', { name: 'Actions for plan.txt' }).click();
    await page.getByRole('menu', { name: 'Actions for plan.txt' }).getByRole('menuitem', { name: 'Delete' }).click();
    await expect.poll(() => page.getByRole('dialog', { name: 'Delete file' }).textContent()).toContain('It goes to the trash for 30 days, where it can be restored.');
    await page.getByRole('dialog', { name: 'Delete file' }).getByRole('button', { name: 'Cancel' }).click();

    // A part of a name, searched in a folder of 10,000 and below; the result opens in its folder's preview.
    await page.getByRole('table').getByRole('link', { name: 'Many' }).click();
    await page.locator('[data-entry="entry-00000"]').waitFor();
    const search = page.getByRole('searchbox', { name: 'Search names in this folder and below' });
    await search.fill('rterly-SUM');
    const results = page.getByRole('list', { name: 'Search results' });
    await results.getByRole('link', { name: 'quarterly-summary.txt' }).waitFor();
    expect(await results.getByRole('listitem').allTextContents()).toEqual(['quarterly-summary.txtFile, 9 B in Recover / Many / entry-04321']);
    await results.getByRole('link', { name: 'quarterly-summary.txt' }).click();
    await expect.poll(() => page.getByTestId('text-lines').textContent()).toBe('found it\n');
    expect(new URL(page.url()).pathname).toBe('/files/Recover/Many/entry-04321');
    await page.goBack();
    // Many results come a page at a time; clearing the search shows the folder again.
    await search.fill('entry-09');
    await expect.poll(() => results.getByRole('listitem').count()).toBe(100);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => results.getByRole('listitem').count()).toBe(200);
    await page.getByRole('button', { name: 'Clear the search' }).click();
    await page.locator('[data-entry="entry-00000"]').waitFor();
    expect(await search.inputValue()).toBe('');
    expect(problems).toEqual([]);
    await page.close();
  });

  itOnSqlite('my account: keys shown once, the reauthentication dialog, a password change', async () => {
    const mia = await site.admin('POST', '/users', { username: 'mia', password: 'mia has a long password' });
    const page = await browser.context.newPage();
    const problems = pageProblems(page);
    await page.goto(`${site.baseUrl}/account`);
    await signInAs(page, { username: 'mia', password: 'mia has a long password' });
    await page.getByRole('heading', { name: 'My account' }).waitFor();
    await page.getByText('You have no API keys.').waitFor();
    await accessible(page, 'my account, no keys');

    await page.getByLabel('Key name').fill('sync laptop');
    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
    await dialog.getByRole('textbox', { name: 'Your password' }).fill('not my password');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await dialog.getByRole('alert').getByText('That password is not right. Nothing was changed.').waitFor();
    await accessible(page, 'reauthentication dialog, wrong password');
    expect(await site.admin('GET', `/api_keys?user_id=${mia.id}`)).toEqual([]);
    await dialog.getByRole('textbox', { name: 'Your password' }).fill('mia has a long password');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    const secret = (await page.getByTestId('new-key-secret').textContent()) ?? '';
    expect(secret).toMatch(/^atr_[A-Za-z0-9_-]{43}$/);
    const asKey = await fetch(`${site.baseUrl}/api/rest/v1/folders/`, { headers: { 'X-ServiceAPI-Key': secret } });
    expect(asKey.status).toBe(200);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.locator('[data-key="sync laptop"]').waitFor();
    expect(await page.content()).not.toContain(secret);
    await page.reload();
    await page.locator('[data-key="sync laptop"]').waitFor();
    expect(await page.content()).not.toContain(secret);

    await page.getByRole('button', { name: 'Revoke sync laptop' }).click();
    await page.getByRole('dialog', { name: 'Revoke API key' }).getByRole('button', { name: 'Revoke' }).click();
    await dialog.getByRole('textbox', { name: 'Your password' }).fill('mia has a long password');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('You have no API keys.').waitFor();
    expect((await fetch(`${site.baseUrl}/api/rest/v1/folders/`, { headers: { 'X-ServiceAPI-Key': secret } })).status).toBe(401);

    await page.locator('input[name="new-password"]').fill('mia has a new long password');
    await page.locator('input[name="new-password-again"]').fill('mia has a new long password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await dialog.getByRole('textbox', { name: 'Your password' }).fill('mia has a long password');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Your password was changed.', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signInAs(page, { username: 'mia', password: 'mia has a new long password' });
    await page.getByRole('heading', { name: 'My account' }).waitFor();

    // The Connect panel: the server's own WebDAV URL, SFTP port and host keys, in commands with mia's name.
    const details = await (await fetch(`${site.baseUrl}/api/rest/v1/connection_details`, { headers: { 'X-ServiceAPI-Key': KEY_FOR_TESTS } })).json() as any;
    const fingerprints = (await site.admin('GET', '/site')).sftp_host_key_fingerprints;
    expect(details).toMatchObject({ webdav_url: `${site.baseUrl}/dav/`, sftp_enabled: true, sftp_host: new URL(site.baseUrl).hostname, sftp_host_key_fingerprints: fingerprints });
    expect(fingerprints).toHaveLength(1);
    // The port is SFTP's own: what listens there greets as an SSH server.
    expect(await sshGreeting(details.sftp_host, details.sftp_port)).toMatch(/^SSH-2\.0-/);
    const panel = page.getByTestId('connect-panel');
    await panel.locator('[data-copy="WebDAV URL"]').waitFor();
    expect(await panel.locator('[data-copy="WebDAV URL"]').textContent()).toBe(`${site.baseUrl}/dav/`);
    expect(await panel.locator('[data-copy="sftp command"]').textContent()).toBe(`sftp -P ${details.sftp_port} mia@${details.sftp_host}`);
    expect(await panel.getByTestId('sftp-fingerprints').locator('code').allTextContents()).toEqual(fingerprints);
    expect(await panel.locator('[data-copy="rclone command"]').textContent()).toContain(`url=${site.baseUrl}/dav/ vendor=owncloud user=mia`);
    await accessible(page, 'my account, the Connect panel');
    // A key for a tool, made from the panel: files only, shown once, listed with the others.
    await panel.getByRole('button', { name: 'Create an API key for a tool' }).click();
    const toolKey = page.getByRole('dialog', { name: 'An API key for a tool' });
    await toolKey.getByLabel('Key name').fill('rclone on the laptop');
    await toolKey.getByRole('button', { name: 'Create key' }).click();
    await dialog.getByRole('textbox', { name: 'Your password' }).fill('mia has a new long password');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    const toolSecret = (await toolKey.locator('[data-copy="API key"]').textContent()) ?? '';
    expect((await fetch(`${site.baseUrl}/api/rest/v1/folders/`, { headers: { 'X-ServiceAPI-Key': toolSecret } })).status).toBe(200);
    expect((await fetch(`${site.baseUrl}/api/rest/v1/users`, { headers: { 'X-ServiceAPI-Key': toolSecret } })).status).toBe(403);
    await toolKey.getByRole('button', { name: 'Done' }).click();
    await page.locator('[data-key="rclone on the laptop"]').getByText('Files only').waitFor();
    // Shown once: once the dialog is closed the secret is nowhere a script could read it, nor in the address.
    expect(await page.content()).not.toContain(toolSecret);
    expect(await page.evaluate<string>('JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage } })')).not.toContain(toolSecret);
    expect(page.url()).not.toContain(toolSecret);

    // The site's own rules are shown before a click, never as a refusal after it.
    await page.locator('input[name="new-password"]').fill('too short');
    await page.getByText('Use at least 12 characters.').waitFor();
    expect(await page.getByRole('button', { name: 'Change password' }).isDisabled()).toBe(true);
    await site.admin('PATCH', '/site', { users_can_create_api_keys: false });
    await page.reload();
    await page.getByText('This site lets only administrators create API keys.', { exact: false }).waitFor();
    await page.getByLabel('Key name').fill('not allowed');
    expect(await page.getByRole('button', { name: 'Create key' }).isDisabled()).toBe(true);
    await site.admin('PATCH', '/site', { users_can_create_api_keys: true });
    expect(problems).toEqual([]);
    await page.close();
  });

  itOnSqlite('the Workspace switcher: for a Workspace 0 administrator, never for a Custom Workspace user', async () => {
    const acme = await site.admin('POST', '/workspaces', { name: 'Acme' });
    const cara = await site.admin('POST', '/users', { username: 'cara', password: 'cara has a long password', workspace_id: acme.id });
    const inAcme = (url: string, body: unknown) => fetch(`${site.baseUrl}/api/rest/v1${url}`, {
      method: 'POST',
      headers: { 'X-ServiceAPI-Key': KEY_FOR_TESTS, 'X-Service-Workspace-Id': String(acme.id), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect((await inAcme('/folders/Reports', {})).status).toBe(201);
    expect((await inAcme('/permissions', { path: 'Reports', user_id: cara.id, permission: 'full' })).status).toBe(201);
    const page = await browser.context.newPage();
    await page.goto(`${site.baseUrl}/`);
    await signInAs(page, ADMIN);
    const switcher = page.getByRole('combobox', { name: 'Workspace' });
    await expect.poll(() => switcher.inputValue()).toBe('Default Workspace');
    // The root's `_`, which holds the Custom Workspaces' files, is named for a person, in the listing and the breadcrumbs.
    await page.locator('[data-entry="_"]').getByRole('link', { name: 'Workspaces' }).click();
    await page.getByRole('navigation', { name: 'Folder path' }).getByText('Workspaces', { exact: true }).waitFor();
    await page.getByText('Each Custom Workspace keeps its files here', { exact: false }).waitFor();
    await switcher.click();
    await page.getByRole('option', { name: 'Acme' }).click();
    await page.getByRole('table').getByRole('link', { name: 'Reports' }).waitFor();
    await expect.poll(() => switcher.inputValue()).toBe('Acme');
    // The header wears the Workspace's colour: another than the Default Workspace's.
    const header = page.locator('[data-workspace-colour]');
    await expect.poll(() => header.getAttribute('data-workspace-colour')).not.toBe('indigo');
    await accessible(page, 'a Custom Workspace chosen with the switcher');
    await page.reload();
    await page.getByRole('table').getByRole('link', { name: 'Reports' }).waitFor();
    // Another browser (a fresh context: no cookie, nothing stored) opens where the person last worked.
    const elsewhere = await browser.context.browser()!.newContext(PAGE_OPTIONS);
    try {
      const other = await elsewhere.newPage();
      await other.goto(`${site.baseUrl}/`);
      await signInAs(other, ADMIN);
      await other.getByRole('table').getByRole('link', { name: 'Reports' }).waitFor();
      await expect.poll(() => other.getByRole('combobox', { name: 'Workspace' }).inputValue()).toBe('Acme');
      // Back to the Default Workspace there: that is now the choice, for the next sign-in anywhere.
      await other.getByRole('combobox', { name: 'Workspace' }).click();
      await Promise.all([
        other.waitForResponse((r) => r.url().endsWith('/user_preferences') && r.request().method() === 'PATCH'),
        other.getByRole('option', { name: 'Default Workspace' }).click(),
      ]);
      await other.getByRole('table').getByRole('link', { name: 'Team' }).waitFor();
    } finally {
      await elsewhere.close();
    }
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signInAs(page, ADMIN);
    await expect.poll(() => switcher.inputValue()).toBe('Default Workspace');
    await page.getByRole('table').getByRole('link', { name: 'Team' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();

    await signInAs(page, { username: 'cara', password: 'cara has a long password' });
    await page.getByRole('table').getByRole('link', { name: 'Reports' }).waitFor();
    expect(await page.getByRole('combobox', { name: 'Workspace' }).count()).toBe(0);
    await page.getByLabel('Current Workspace: Acme').waitFor();
    await page.setViewportSize({ width: 375, height: 700 });
    await accessible(page, 'files on a narrow screen, Custom Workspace user');
    await page.close();
  });

  itOnSqlite('administration of users: a site administrator creates and disables; a Workspace administrator sees only their Workspace', async () => {
    const page = await browser.context.newPage();
    const problems = pageProblems(page);
    await page.goto(`${site.baseUrl}/`);
    await signInAs(page, ADMIN);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
    await page.locator(`[data-user="${ADMIN.username}"]`).waitFor();
    await page.getByRole('button', { name: 'New user' }).click();
    const create = page.getByRole('dialog', { name: 'New user' });
    await create.getByLabel('User name').fill('newbie');
    await create.getByRole('textbox', { name: 'Password' }).fill('newbie has a long password');
    await create.getByLabel('Full name').fill('<b>Not bold</b>');
    await create.getByRole('button', { name: 'Create user' }).click();
    await page.locator('[data-user="newbie"]').getByText('<b>Not bold</b>').waitFor();
    await accessible(page, 'users, site administrator');

    // Edited after creation: name and email need no password; the Site Administrator flag does.
    const confirm = page.getByRole('dialog', { name: 'Confirm it is you' });
    await page.getByRole('button', { name: 'Actions for newbie' }).click();
    await page.getByRole('menu', { name: 'Actions for newbie' }).getByRole('menuitem', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit newbie' });
    await edit.getByLabel('Full name').fill('Newbie Newman');
    await edit.getByLabel('Email').fill('newbie@example.test');
    expect(await edit.getByRole('checkbox', { name: 'Workspace Administrator' }).count()).toBe(0);
    await accessible(page, 'user edit dialog, site administrator');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.locator('[data-user="newbie"]').getByText('newbie@example.test').waitFor();
    await page.locator('[data-user="newbie"]').getByText('Newbie Newman').waitFor();
    await page.getByRole('button', { name: 'Actions for newbie' }).click();
    await page.getByRole('menu', { name: 'Actions for newbie' }).getByRole('menuitem', { name: 'Edit' }).click();
    await edit.getByRole('checkbox', { name: 'Site Administrator' }).check();
    await edit.getByRole('button', { name: 'Save' }).click();
    await confirm.getByRole('textbox', { name: 'Your password' }).fill(ADMIN.password);
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await page.locator('[data-user="newbie"]').getByText('Site Administrator').waitFor();
    const newbie = (await site.admin('GET', '/users?filter[username]=newbie'))[0];
    expect(newbie).toMatchObject({ name: 'Newbie Newman', email: 'newbie@example.test', site_admin: true });
    await site.admin('PATCH', `/users/${newbie.id}`, { site_admin: false });
    await page.reload();

    await page.getByRole('button', { name: 'Actions for newbie' }).click();
    await page.getByRole('menu', { name: 'Actions for newbie' }).getByRole('menuitem', { name: 'Disable' }).click();
    await confirm.getByRole('textbox', { name: 'Your password' }).fill(ADMIN.password);
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await page.locator('[data-user="newbie"]').getByText('Disabled').waitFor();
    const login = await fetch(`${site.baseUrl}/api/rest/v1/sessions`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'newbie', password: 'newbie has a long password' }),
    });
    expect(login.status).toBe(401);

    await page.getByRole('button', { name: 'Actions for dana' }).click();
    await page.getByRole('menu', { name: 'Actions for dana' }).getByRole('menuitem', { name: 'Permissions and API keys' }).click();
    const access = page.getByRole('dialog', { name: 'Access of dana' });
    await access.locator('[data-user-grant="Team"]').getByText('Full access').waitFor();
    await access.locator('[data-user-grant="Archive"]').getByText('View and download').waitFor();
    await access.getByLabel('Key name').fill('dana backup job');
    await access.getByRole('button', { name: 'Create key' }).click();
    await confirm.getByRole('textbox', { name: 'Your password' }).fill(ADMIN.password);
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    const secret = (await page.getByTestId('new-key-secret').textContent()) ?? '';
    expect(secret).toMatch(/^atr_/);
    const asDana = await fetch(`${site.baseUrl}/api/rest/v1/folders/Team`, { headers: { 'X-ServiceAPI-Key': secret } });
    expect(asDana.status).toBe(200);
    await page.getByRole('button', { name: 'Done' }).click();
    await access.locator('[data-key="dana backup job"]').getByRole('cell', { name: 'Default Workspace', exact: true }).waitFor();

    // A Site Administrator working in Workspace 0 chooses the Workspace of a Workspace 0 user's key.
    await access.getByRole('button', { name: 'Close' }).click();
    const keyholders = await site.admin('POST', '/workspaces', { name: 'Keyholders' });
    await page.getByRole('button', { name: 'Actions for dana' }).click();
    // The dialog asks for the Workspaces as it opens; the choice lists them once they have come
    // (on a busy machine, after the first click could open it with the Default Workspace alone).
    const workspacesListed = page.waitForResponse((response) => new URL(response.url()).pathname.endsWith('/workspaces') && response.request().method() === 'GET');
    await page.getByRole('menu', { name: 'Actions for dana' }).getByRole('menuitem', { name: 'Permissions and API keys' }).click();
    await workspacesListed;
    await access.getByLabel('Key name').fill('dana keyholders job');
    await access.getByRole('combobox', { name: 'Key Workspace' }).click();
    await page.getByRole('option', { name: 'Keyholders' }).click();
    await access.getByRole('button', { name: 'Create key' }).click();
    await confirm.getByRole('textbox', { name: 'Your password' }).fill(ADMIN.password);
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await page.getByTestId('new-key-secret').waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    await access.locator('[data-key="dana keyholders job"]').getByRole('cell', { name: 'Keyholders', exact: true }).waitFor();
    const danaKeys = await site.admin('GET', `/api_keys?user_id=${(await site.admin('GET', '/users?filter[username]=dana'))[0].id}`);
    expect(danaKeys.map((k: any) => [k.name, k.workspace_id]).sort()).toEqual([['dana backup job', 0], ['dana keyholders job', keyholders.id]]);
    await accessible(page, 'user access dialog, keys in two Workspaces');
    await access.getByRole('button', { name: 'Close' }).click();

    await page.getByLabel('User name').fill('newbie');
    await page.getByRole('button', { name: 'Find' }).click();
    await expect.poll(() => page.locator('[data-user]').count()).toBe(1);
    // Enabled again, given a new password, then deleted: each confirmed with the password.
    const confirmed = async () => {
      await confirm.getByRole('textbox', { name: 'Your password' }).fill(ADMIN.password);
      await confirm.getByRole('button', { name: 'Confirm' }).click();
    };
    await page.getByRole('button', { name: 'Actions for newbie' }).click();
    await page.getByRole('menu', { name: 'Actions for newbie' }).getByRole('menuitem', { name: 'Enable' }).click();
    await confirmed();
    await expect.poll(() => page.locator('[data-user="newbie"]').getByText('Disabled').count()).toBe(0);
    await page.getByRole('button', { name: 'Actions for newbie' }).click();
    await page.getByRole('menu', { name: 'Actions for newbie' }).getByRole('menuitem', { name: 'Set password' }).click();
    await page.getByRole('dialog', { name: 'Set password' }).getByLabel('New password').fill('newbie has another long password');
    await page.getByRole('dialog', { name: 'Set password' }).getByRole('button', { name: 'Set password' }).click();
    await confirmed();
    await page.getByRole('dialog', { name: 'Set password' }).waitFor({ state: 'detached' });
    const relogin = await fetch(`${site.baseUrl}/api/rest/v1/sessions`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'newbie', password: 'newbie has another long password' }),
    });
    expect(relogin.status).toBe(201);
    await page.getByRole('button', { name: 'Actions for newbie' }).click();
    await page.getByRole('menu', { name: 'Actions for newbie' }).getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete user' }).getByRole('button', { name: 'Delete' }).click();
    await confirmed();
    await page.locator('[data-user="newbie"]').waitFor({ state: 'detached' });
    expect(await site.admin('GET', '/users?filter[username]=newbie')).toEqual([]);
    await page.getByRole('button', { name: 'Sign out' }).click();

    const globex = await site.admin('POST', '/workspaces', { name: 'Globex' });
    await site.admin('POST', '/users', { username: 'gwen', password: 'gwen has a long password', workspace_id: globex.id, workspace_admin: true });
    await site.admin('POST', '/users', { username: 'gus', password: 'gus has a long password', workspace_id: globex.id });
    await signInAs(page, { username: 'gwen', password: 'gwen has a long password' });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
    await page.locator('[data-user="gus"]').waitFor();
    const seen = await page.locator('[data-user]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-user')));
    expect(seen.sort()).toEqual(['gus', 'gwen']);
    expect(await page.getByRole('combobox', { name: 'Workspace' }).count()).toBe(0);
    // A Workspace Administrator edits a user of their Workspace: no Site Administrator flag to offer there.
    await page.getByRole('button', { name: 'Actions for gus' }).click();
    await page.getByRole('menu', { name: 'Actions for gus' }).getByRole('menuitem', { name: 'Edit' }).click();
    const editGus = page.getByRole('dialog', { name: 'Edit gus' });
    expect(await editGus.getByRole('checkbox', { name: 'Site Administrator' }).count()).toBe(0);
    await editGus.getByRole('checkbox', { name: 'Workspace Administrator' }).check();
    await editGus.getByRole('button', { name: 'Save' }).click();
    await confirm.getByRole('textbox', { name: 'Your password' }).fill('gwen has a long password');
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await page.locator('[data-user="gus"]').getByText('Workspace Administrator').waitFor();
    // A Custom Workspace user's key belongs to their Workspace: no choice, and the reason says why.
    await page.getByRole('button', { name: 'Actions for gus' }).click();
    await page.getByRole('menu', { name: 'Actions for gus' }).getByRole('menuitem', { name: 'Permissions and API keys' }).click();
    const gusAccess = page.getByRole('dialog', { name: 'Access of gus' });
    await gusAccess.getByText('A key of a Custom Workspace user belongs to that Workspace.').waitFor();
    expect(await gusAccess.getByRole('combobox', { name: 'Key Workspace' }).isDisabled()).toBe(true);
    await accessible(page, 'user access dialog, Workspace administrator (key Workspace fixed)');
    await gusAccess.getByRole('button', { name: 'Close' }).click();
    expect(problems).toEqual([]);
    await page.close();
    // Two administrators' whole sessions with an accessibility check at each screen: about 20 s on
    // a quiet machine, so the default 30 s is too close when the suite loads it.
  }, 60_000);

  itOnSqlite('site administration: Workspaces created, renamed and deleted; site settings saved after reauthentication', async () => {
    const page = await browser.context.newPage();
    const problems = pageProblems(page);
    await page.goto(`${site.baseUrl}/admin/workspaces`);
    await signInAs(page, ADMIN);
    await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
    await page.getByRole('button', { name: 'New Workspace' }).click();
    await page.getByRole('dialog', { name: 'New Workspace' }).getByLabel('Name').fill('Initech');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.locator('[data-workspace="Initech"]').waitFor();
    await page.getByRole('button', { name: 'Rename Initech' }).click();
    await page.getByRole('dialog', { name: 'Rename Workspace' }).getByLabel('Name').fill('Initrode');
    await page.getByRole('dialog', { name: 'Rename Workspace' }).getByRole('button', { name: 'Rename' }).click();
    await page.locator('[data-workspace="Initrode"]').waitFor();
    await accessible(page, 'Workspaces');
    await page.getByRole('button', { name: 'Delete Initrode' }).click();
    await page.getByRole('dialog', { name: 'Delete Workspace' }).getByRole('button', { name: 'Delete' }).click();
    await page.locator('[data-workspace="Initrode"]').waitFor({ state: 'detached' });
    expect((await site.admin('GET', '/workspaces')).map((w: any) => w.name)).not.toContain('Initrode');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Site settings' }).click();
    await page.getByLabel('Shortest password allowed').fill('14');
    // A minutes setting with a spelling in hours beside it (session_expiry): only the new value is sent.
    await page.getByLabel('Sign out after this many idle minutes').fill('90');
    await page.getByRole('button', { name: 'Save' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm it is you' });
    await confirm.getByRole('textbox', { name: 'Your password' }).fill(ADMIN.password);
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('The settings were saved.').waitFor();
    await confirm.waitFor({ state: 'hidden' });
    expect(await site.admin('GET', '/site')).toMatchObject({ password_min_length: 14, session_expiry_minutes: 90, session_expiry: 1.5 });
    await accessible(page, 'site settings, saved');
    await site.admin('PATCH', '/site', { password_min_length: 12, session_expiry_minutes: 360 });
    expect(problems).toEqual([]);
    await page.close();
  });

  itOnSqlite('why can this be reached: for oneself, and by an administrator for a user', async () => {
    const auditors = await site.admin('POST', '/groups', { name: 'Auditors', user_ids: String((await site.admin('GET', '/users?filter[username]=dana'))[0].id) });
    await site.admin('POST', '/folders/Ledger', { mkdir_parents: true });
    await site.admin('POST', '/permissions', { path: 'Ledger', group_id: auditors.id, permission: 'readonly' });
    const page = await browser.context.newPage();
    await page.goto(`${site.baseUrl}/`);
    await signInAs(page, DANA);
    await page.getByRole('button', { name: 'Actions for Ledger' }).click();
    await page.getByRole('menu', { name: 'Actions for Ledger' }).getByRole('menuitem', { name: 'Why can this be reached?' }).click();
    const explanation = page.getByTestId('explanation');
    await explanation.getByText('See, Download: View and download on “Ledger”, given to the group Auditors').waitFor();
    expect(await explanation.getByText('Upload', { exact: true }).count()).toBe(0);
    expect(await page.getByLabel('For the user').count()).toBe(0);
    await accessible(page, 'why can this be reached, for oneself');
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();

    await signInAs(page, ADMIN);
    await page.getByRole('button', { name: 'Actions for Team' }).click();
    await page.getByRole('menu', { name: 'Actions for Team' }).getByRole('menuitem', { name: 'Why can this be reached?' }).click();
    await page.getByTestId('explanation').getByText('Site Administrator', { exact: true }).waitFor();
    await page.getByLabel('For the user').fill(DANA.username);
    await page.getByRole('button', { name: 'Explain' }).click();
    // One line for the one grant, naming every capability it gives, not a line for each.
    await page.getByTestId('explanation').getByText(/^See, Download, Upload, Delete and move.*: Full access on “Team”, given to the user$/).waitFor();
    expect(await page.getByTestId('explanation').getByText(/Full access on “Team”/).count()).toBe(1);
    // Each capability a word, explained in a tooltip that the keyboard reaches as well as the mouse.
    // From the Explain button, the next Tab is the first capability's.
    await page.keyboard.press('Tab');
    await expect.poll(() => page.locator('[data-capability]:focus').getAttribute('data-capability')).toBe('list');
    await expect.poll(() => page.getByRole('tooltip').textContent()).toBe('See the entry and, in a folder, what is in it');
    await page.getByTestId('explanation').locator('[data-capability="delete"]').hover();
    await expect.poll(() => page.getByRole('tooltip').filter({ hasText: 'rename' }).textContent()).toBe('Delete, move, rename and overwrite');
    await page.close();
  });

  itOnSqlite('groups: a Workspace administrator appoints a Group Admin, who then manages the members but appoints no one', async () => {
    const umbrella = await site.admin('POST', '/workspaces', { name: 'Umbrella' });
    const umbrellaUsers: Record<string, any> = {};
    for (const [username, flags] of [['uma', { workspace_admin: true }], ['ugo', {}], ['ulla', {}], ['uli', {}]] as const) {
      umbrellaUsers[username] = await site.admin('POST', '/users', { username, password: `${username} has a long password`, workspace_id: umbrella.id, ...flags });
    }
    const page = await browser.context.newPage();
    const problems = pageProblems(page);
    await page.goto(`${site.baseUrl}/admin/groups`);
    await signInAs(page, { username: 'uma', password: 'uma has a long password' });
    await page.getByRole('button', { name: 'New group' }).click();
    await page.getByRole('dialog', { name: 'New group' }).getByLabel('Name').fill('Ops');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByRole('button', { name: 'Members of Ops' }).click();
    await page.getByRole('combobox', { name: 'User name' }).fill('ugo');
    await page.getByRole('button', { name: 'Add member' }).click();
    // The group has no permission yet: joining it changes no one's access, and the preview says so.
    await page.getByTestId('membership-preview').getByText('No one’s access changes.').waitFor();
    await page.getByTestId('membership-preview').getByRole('button', { name: /^Add / }).click();
    await page.locator('[data-member="ugo"]').getByRole('button', { name: 'Make Group Admin' }).click();
    await page.locator('[data-member="ugo"]').getByText('Group Admin', { exact: true }).waitFor();
    // An administrator picks among the Workspace's users as they type.
    await page.getByRole('combobox', { name: 'User name' }).fill('ul');
    await page.getByRole('option', { name: 'ulla' }).click();
    expect(await page.getByRole('combobox', { name: 'User name' }).inputValue()).toBe('ulla');
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.getByTestId('membership-preview').getByRole('button', { name: /^Add / }).click();
    await page.locator('[data-member="ulla"]').waitFor();
    await accessible(page, 'groups, the members of a group with its Group Admin');
    // Renamed in place: the list and the members' panel say the new name, and so does the server.
    await page.getByRole('button', { name: 'Rename Ops' }).click();
    await page.getByRole('dialog', { name: 'Rename group' }).getByLabel('Name').fill('Operations');
    await page.getByRole('dialog', { name: 'Rename group' }).getByRole('button', { name: 'Rename' }).click();
    await page.locator('[data-group="Operations"]').waitFor();
    await page.getByRole('heading', { name: 'Members of Operations' }).waitFor();
    expect((await site.admin('GET', '/groups', undefined, umbrella.id)).map((g: any) => g.name)).toEqual(['Operations']);
    await page.getByRole('button', { name: 'Sign out' }).click();

    await signInAs(page, { username: 'ugo', password: 'ugo has a long password' });
    // A Group Admin sees their group's members among the users, and no control to change a user.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
    await page.locator('[data-user="ulla"]').waitFor();
    await page.locator('[data-authority="known"]').waitFor();
    expect(await page.getByRole('button', { name: 'New user' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Actions for/ }).count()).toBe(0);
    await page.getByText('Only an administrator of the Workspace changes users.', { exact: false }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Groups' }).click();
    await page.getByRole('button', { name: 'Members of Operations' }).click();
    expect(await page.getByRole('button', { name: 'New group' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /Make/ }).count()).toBe(0);
    await page.getByRole('button', { name: 'Remove ulla' }).click();
    await page.getByTestId('membership-preview').getByRole('button', { name: 'Remove ulla from the group' }).click();
    await page.locator('[data-member="ulla"]').waitFor({ state: 'detached' });
    // A Group Admin sees only their groups' members: another user is not found by name, and the
    // console says how to add them anyway, by the user id the server accepts from a Group Admin.
    await page.getByRole('combobox', { name: 'User name' }).fill('uli');
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.getByRole('alert').getByText('No user named “uli” is visible to you.', { exact: false }).waitFor();
    await page.getByRole('alert').getByText('type # and their user id', { exact: false }).waitFor();
    await accessible(page, 'group members, a Group Admin told how to add someone unseen');
    await page.getByRole('combobox', { name: 'User name' }).fill(`#${umbrellaUsers.uli.id}`);
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.getByTestId('membership-preview').getByRole('button', { name: /^Add / }).click();
    await page.locator('[data-member="uli"]').waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    const members = await site.admin('GET', `/group_users?group_id=${(await site.admin('GET', '/groups', undefined, umbrella.id))[0].id}`, undefined, umbrella.id);
    expect(members.map((m: any) => m.username).sort()).toEqual(['ugo', 'uli']);
    expect(problems).toEqual([]);
    await page.close();
  });

  itOnSqlite('folder permissions: added after the replacement is shown, replaced, removed', async () => {
    await site.admin('POST', '/folders/Projects', { mkdir_parents: true });
    const page = await browser.context.newPage();
    const problems = pageProblems(page);
    await page.goto(`${site.baseUrl}/`);
    await signInAs(page, ADMIN);
    await page.getByRole('button', { name: 'Actions for Projects' }).click();
    await page.getByRole('menu', { name: 'Actions for Projects' }).getByRole('menuitem', { name: 'Permissions' }).click();
    const dialog = page.getByRole('dialog', { name: 'Folder permissions' });
    await dialog.getByText('No permission is given on this folder itself.').waitFor();
    const grant = async (level: string) => {
      await dialog.getByLabel('User name').fill(DANA.username);
      await dialog.getByRole('combobox', { name: 'Level' }).click();
      await page.getByRole('option', { name: new RegExp(`^${level}`) }).click();
      await dialog.getByRole('button', { name: 'Review' }).click();
      await dialog.getByTestId('replacement-preview').waitFor();
    };
    await grant('View and download');
    await dialog.getByTestId('replacement-preview').getByText('None of their permissions is removed.').waitFor();
    // What the change would do to access, as the server's dry run answers it.
    await dialog.getByTestId('access-difference').getByText('dana may now see, download on “Projects”.').waitFor();
    await dialog.getByRole('button', { name: 'Add permission' }).click();
    await dialog.locator('[data-grant="user dana"]').getByText('View and download').waitFor();

    // Who can reach the folder now: dana, by that grant (and the administrators, by their role).
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'Actions for Projects' }).click();
    await page.getByRole('menu', { name: 'Actions for Projects' }).getByRole('menuitem', { name: 'Who can reach this?' }).click();
    const reach = page.getByRole('dialog', { name: 'Who can reach this?' });
    await reach.locator('[data-reach="dana"]').getByText('View and download on “Projects”').waitFor();
    await accessible(page, 'who can reach this');
    await reach.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'Actions for Projects' }).click();
    await page.getByRole('menu', { name: 'Actions for Projects' }).getByRole('menuitem', { name: 'Permissions' }).click();

    await grant('Full access');
    await dialog.getByTestId('replacement-preview').getByText('View and download on “Projects”').waitFor();
    await accessible(page, 'folder permissions, a replacement shown');
    await dialog.getByRole('button', { name: 'Add permission' }).click();
    await dialog.getByText('The permission was added; 1 of their permissions that it covers was removed.').waitFor();
    const onProjects = await site.admin('GET', '/permissions?path=Projects');
    expect(onProjects.map((p: any) => p.permission)).toEqual(['full']);

    await dialog.getByRole('button', { name: 'Remove Full access for user dana' }).click();
    await dialog.getByTestId('removal-preview').getByText('dana may no longer see, download, upload, delete and move on “Projects”.').waitFor();
    await dialog.getByRole('button', { name: 'Remove permission' }).click();
    await dialog.getByText('No permission is given on this folder itself.').waitFor();
    expect(await site.admin('GET', '/permissions?path=Projects')).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a Workspace administered through a root admin grant: set up by a site administrator in the console, then only its administration is offered', async () => {
    const page = await browser.context.newPage();
    const problems = pageProblems(page);
    await page.goto(`${site.baseUrl}/admin/workspaces`);
    await signInAs(page, ADMIN);
    const nav = page.getByRole('navigation', { name: 'Main' });
    // The Workspace, then a user in it, a group with that user, and an admin grant on its root, all in the console.
    await page.getByRole('button', { name: 'New Workspace' }).click();
    await page.getByRole('dialog', { name: 'New Workspace' }).getByLabel('Name').fill('Wayne');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.locator('[data-workspace="Wayne"]').waitFor();
    await page.getByRole('combobox', { name: 'Workspace', exact: true }).click();
    await page.getByRole('option', { name: 'Wayne' }).click();
    await page.getByText('This folder is empty.').waitFor();
    await nav.getByRole('link', { name: 'Users' }).click();
    await page.getByRole('button', { name: 'New user' }).click();
    const create = page.getByRole('dialog', { name: 'New user' });
    await create.getByLabel('User name').fill('wanda');
    await create.getByRole('textbox', { name: 'Password' }).fill('wanda has a long password');
    await create.getByRole('button', { name: 'Create user' }).click();
    await page.locator('[data-user="wanda"]').waitFor();
    await nav.getByRole('link', { name: 'Groups' }).click();
    await page.getByRole('button', { name: 'New group' }).click();
    await page.getByRole('dialog', { name: 'New group' }).getByLabel('Name').fill('Wayne admins');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByRole('button', { name: 'Members of Wayne admins' }).click();
    await page.getByRole('combobox', { name: 'User name' }).fill('wanda');
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.getByTestId('membership-preview').getByRole('button', { name: /^Add / }).click();
    await page.locator('[data-member="wanda"]').waitFor();
    await nav.getByRole('link', { name: 'Files' }).click();
    await page.getByRole('button', { name: 'Permissions of this folder' }).click();
    const dialog = page.getByRole('dialog', { name: 'Folder permissions' });
    await dialog.getByText('A group').click();
    // The group field suggests the groups, as the user field does.
    await dialog.getByRole('combobox', { name: 'Group name' }).fill('wayne');
    await page.getByRole('option', { name: 'Wayne admins' }).click();
    expect(await dialog.getByRole('combobox', { name: 'Group name' }).inputValue()).toBe('Wayne admins');
    await dialog.getByRole('combobox', { name: 'Level' }).click();
    await page.getByRole('option', { name: /^Folder Admin/ }).click();
    await dialog.getByRole('button', { name: 'Review' }).click();
    await dialog.getByRole('button', { name: 'Add permission' }).click();
    await dialog.locator('[data-grant="group Wayne admins"]').getByRole('cell', { name: 'Folder Admin', exact: true }).waitFor();
    const wayne = (await site.admin('GET', '/workspaces')).find((w: any) => w.name === 'Wayne');
    const rootGrants = await site.admin('GET', '/permissions?path=', undefined, wayne.id);
    expect(rootGrants.map((g: any) => [g.group_name, g.permission, g.recursive])).toEqual([['Wayne admins', 'admin', true]]);
    expect((await site.admin('GET', '/users?filter[username]=wanda'))[0].workspace_admin).toBe(false);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await forgetWorkspaceChoice(ADMIN);

    // wanda's flag says nothing, but the grant makes her the Workspace's administrator: Users and
    // Groups are offered, of Wayne only; the site's screens are not, nor a switcher.
    await signInAs(page, { username: 'wanda', password: 'wanda has a long password' });
    await nav.getByRole('link', { name: 'Users' }).click();
    await page.locator('[data-user="wanda"]').waitFor();
    expect(await page.locator('[data-user]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-user')))).toEqual(['wanda']);
    await page.getByRole('button', { name: 'New user' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Workspaces' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'Site settings' }).count()).toBe(0);
    expect(await page.getByRole('combobox', { name: 'Workspace', exact: true }).count()).toBe(0);
    await page.getByLabel('Current Workspace: Wayne').waitFor();
    await nav.getByRole('link', { name: 'Groups' }).click();
    await page.getByRole('button', { name: 'New group' }).waitFor();
    await accessible(page, 'groups, Workspace administrator by a root grant');
    await page.getByRole('button', { name: 'Sign out' }).click();

    // A Workspace 0 user with an admin grant on Wayne's root (which only a Site Administrator gives):
    // no administration in the Default Workspace; Wayne's once it is selected.
    const walt = await site.admin('POST', '/users', { username: 'walt', password: 'walt has a long password' });
    await site.admin('POST', '/permissions', { path: '', user_id: walt.id, permission: 'admin' }, wayne.id);
    await signInAs(page, { username: 'walt', password: 'walt has a long password' });
    const switcher = page.getByRole('combobox', { name: 'Workspace', exact: true });
    await expect.poll(() => switcher.inputValue()).toBe('Default Workspace');
    expect(await nav.getByRole('link', { name: 'Users' }).count()).toBe(0);
    await switcher.click();
    await page.getByRole('option', { name: 'Wayne' }).click();
    await nav.getByRole('link', { name: 'Users' }).click();
    await page.locator('[data-user="wanda"]').waitFor();
    expect(await page.locator('[data-user]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-user')))).toEqual(['wanda']);
    expect(await nav.getByRole('link', { name: 'Workspaces' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'Site settings' }).count()).toBe(0);
    await switcher.click();
    await page.getByRole('option', { name: 'Default Workspace' }).click();
    await expect.poll(() => nav.getByRole('link', { name: 'Users' }).count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('users: a Workspace of more than a page of users is listed a page at a time and searched by name', async () => {
    const crowd = await site.admin('POST', '/workspaces', { name: 'Crowd' });
    await site.admin('POST', '/users', { username: 'cora', password: 'cora has a long password', workspace_id: crowd.id, workspace_admin: true });
    for (let i = 0; i < 105; i += 1) await site.admin('POST', '/users', { username: `crowd-${String(i).padStart(3, '0')}`, workspace_id: crowd.id });
    const page = await browser.context.newPage();
    const problems = pageProblems(page);
    await page.goto(`${site.baseUrl}/admin/users`);
    await signInAs(page, { username: 'cora', password: 'cora has a long password' });
    await page.locator('[data-user="cora"]').waitFor();
    expect(await page.locator('[data-user]').count()).toBe(100);
    await page.getByRole('button', { name: 'Show more' }).click();
    await page.locator('[data-user="crowd-104"]').waitFor();
    expect(await page.locator('[data-user]').count()).toBe(106);
    expect(await page.getByRole('button', { name: 'Show more' }).count()).toBe(0);
    await page.getByLabel('User name').fill('CROWD-042');
    await page.getByRole('button', { name: 'Find' }).click();
    await expect.poll(() => page.locator('[data-user]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-user')))).toEqual(['crowd-042']);
    await page.getByRole('button', { name: 'Show all' }).click();
    await expect.poll(() => page.locator('[data-user]').count()).toBe(100);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a Folder Admin manages the permissions of their folder, and of no other', async () => {
    await site.admin('POST', '/folders/Dept/Inner', { mkdir_parents: true });
    await site.admin('POST', '/folders/Elsewhere', { mkdir_parents: true });
    const fred = await site.admin('POST', '/users', { username: 'fred', password: 'fred has a long password' });
    await site.admin('POST', '/permissions', { path: 'Dept', user_id: fred.id, permission: 'admin' });
    await site.admin('POST', '/permissions', { path: 'Elsewhere', user_id: fred.id, permission: 'full' });
    const dana = (await site.admin('GET', '/users?filter[username]=dana'))[0];
    const page = await browser.context.newPage();
    const problems = pageProblems(page);
    await page.goto(`${site.baseUrl}/files`);
    await signInAs(page, { username: 'fred', password: 'fred has a long password' });
    const nav = page.getByRole('navigation', { name: 'Main' });
    await page.getByRole('table').getByRole('link', { name: 'Dept' }).waitFor();
    expect(await nav.getByRole('link', { name: /Users|Groups/ }).count()).toBe(0);
    // At the root, which fred does not manage: once the server answered, no button for its permissions.
    await page.locator('[data-manages="false"]').waitFor();
    expect(await page.getByRole('button', { name: 'Permissions of this folder' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Actions for Elsewhere' }).click();
    const elsewhereMenu = page.getByRole('menu', { name: 'Actions for Elsewhere' });
    await page.locator('[role="menu"][data-manages="false"]').waitFor();
    await elsewhereMenu.getByRole('menuitem', { name: 'Why can this be reached?' }).waitFor();
    expect(await elsewhereMenu.getByRole('menuitem', { name: 'Permissions' }).count()).toBe(0);
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Actions for Dept' }).click();
    await page.getByRole('menu', { name: 'Actions for Dept' }).getByRole('menuitem', { name: 'Permissions' }).click();
    const dialog = page.getByRole('dialog', { name: 'Folder permissions' });
    await dialog.locator('[data-grant="user fred"]').getByRole('cell', { name: 'Folder Admin', exact: true }).waitFor();
    // fred can list only himself: a colleague by name is not found, with the way round it said.
    await dialog.getByLabel('User name').fill(DANA.username);
    await dialog.getByRole('button', { name: 'Review' }).click();
    await dialog.getByRole('alert').getByText('No user named “dana” is visible to you.', { exact: false }).waitFor();
    await dialog.getByLabel('User name').fill(`#${dana.id}`);
    await dialog.getByRole('button', { name: 'Review' }).click();
    await dialog.getByTestId('replacement-preview').waitFor();
    await dialog.getByRole('button', { name: 'Add permission' }).click();
    await dialog.getByText('The permission was added.').waitFor();
    await accessible(page, 'folder permissions, Folder Admin after adding');
    await dialog.getByRole('button', { name: 'Close' }).click();
    const onDept = await site.admin('GET', '/permissions?path=Dept');
    expect(onDept.map((g: any) => [g.username, g.permission]).sort()).toEqual([['dana', 'readonly'], ['fred', 'admin']]);

    // Inside his folder the button is there; inside another folder it is not.
    await page.getByRole('table').getByRole('link', { name: 'Dept' }).click();
    await page.getByRole('button', { name: 'Permissions of this folder' }).waitFor();
    await page.getByRole('navigation', { name: 'Folder path' }).getByRole('link', { name: 'All files' }).click();
    await page.getByRole('table').getByRole('link', { name: 'Elsewhere' }).click();
    await page.getByText('This folder is empty.').waitFor();
    await page.locator('[data-manages="false"]').waitFor();
    expect(await page.getByRole('button', { name: 'Permissions of this folder' }).count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  itOnSqlite('asks for a new password when an administrator requires one, and opens the files once it is changed', async () => {
    await site.admin('POST', '/users', { username: 'robin', password: 'robin has a long password', require_password_change: true });
    await site.admin('POST', '/permissions', { path: 'Team', username: 'robin', permission: 'readonly' });
    const page = await browser.context.newPage();
    await page.goto(`${site.baseUrl}/files`);
    await signInAs(page, { username: 'robin', password: 'robin has a long password' });
    const screen = page.getByRole('form', { name: 'Choose a new password' });
    await screen.waitFor();
    await accessible(page, 'required password change');
    await screen.getByLabel('Current password').fill('not the password');
    await screen.locator('input[name="new-password"]').fill('robin has a newer password');
    await screen.getByLabel('New password again').fill('robin has a newer password');
    await screen.getByRole('button', { name: 'Change password' }).click();
    await expect.poll(() => screen.getByRole('alert').textContent()).toBe('The current password is not right. Nothing was changed.');
    await screen.getByLabel('Current password').fill('robin has a long password');
    await screen.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('table').getByRole('link', { name: 'Team' }).waitFor();
    const robin = (await site.admin('GET', '/users?filter[username]=robin'))[0];
    expect(robin.require_password_change).toBe(false);
    await page.close();
  });

  itOnSqlite('shows the lockout message while the account is locked', async () => {
    await site.admin('PATCH', '/site', { user_lockout: true, user_lockout_tries: 2 });
    await site.admin('POST', '/users', { username: 'lee', password: 'lee has a long password' });
    const page = await browser.context.newPage();
    await page.goto(`${site.baseUrl}/sign-in`);
    for (let i = 0; i < 2; i += 1) {
      await signInAs(page, { username: 'lee', password: `wrong password number ${i}` });
      await expect.poll(() => page.getByRole('alert').textContent()).toBe('The username or password is not valid.');
    }
    await signInAs(page, { username: 'lee', password: 'lee has a long password' });
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/locked/);
    await page.close();
  });

  itOnSqlite('a page on another origin cannot act with the cookie: neither a form post nor a script', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${site.baseUrl}/sign-in`);
    await signInAs(page, ADMIN);
    await page.getByRole('table').waitFor();
    const target = `${site.baseUrl}/api/rest/v1/folders/Forged`;
    const attacker = http.createServer((_request, response) => {
      response.setHeader('content-type', 'text/html');
      response.end(`<!doctype html><form id="f" method="POST" action="${target}"><input name="mkdir_parents" value="true"></form>
        <script>
          fetch(${JSON.stringify(target + 'ByScript')}, { method: 'POST', credentials: 'include', headers: { 'X-Atrium-Console': '1' } })
            .then(() => { document.title = 'script reached'; }, () => { document.title = 'script blocked'; })
            .finally(() => document.getElementById('f').submit());
        </script>`);
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    try {
      const evil = await browser.context.newPage();
      await evil.goto(`http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`);
      await evil.waitForURL(target);
      expect(await evil.textContent('body')).toContain('authentication-required');
      await evil.close();
    } finally {
      attacker.close();
    }
    const root = await site.admin('GET', '/folders/');
    expect(root.map((e: any) => e.path)).not.toContain('Forged');
    expect(root.map((e: any) => e.path)).not.toContain('ForgedByScript');
    await page.close();
  });

  // The server's idle clock counts in minutes: the minute passes on the page's fake clock and in the
  // session's row, not for the test.
  itOnSqlite('after the idle timeout says so, and after signing in goes back where the person was', async () => {
    await site.admin('PATCH', '/site', { session_expiry_minutes: 1 });
    const page = await browser.context.newPage();
    // A minute passes for the page's clock and for the session in the database, not for the test.
    await page.clock.install();
    const requests = requestsOf(page);
    await page.goto(`${site.baseUrl}/files`);
    await signInAs(page, DANA);
    await page.getByRole('table').getByRole('link', { name: 'Archive' }).waitFor();
    await requests.quiet();
    await site.ageSessions(62_000);
    await page.clock.fastForward(62_000);
    await page.getByRole('table').getByRole('link', { name: 'Archive' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.getByRole('status').textContent()).toBe('You were signed out after 1 minute of inactivity. Sign in again to continue.');
    await signInAs(page, DANA);
    await page.getByRole('navigation', { name: 'Folder path' }).getByText('Archive').waitFor();
    expect(new URL(page.url()).pathname).toBe('/files/Archive');
    await site.admin('PATCH', '/site', { session_expiry_minutes: 360 });
    await page.close();
  });
}
