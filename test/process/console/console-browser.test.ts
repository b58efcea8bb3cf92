import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { browserAvailable, expectAccessible, launchBrowser, pageProblems, SCREENSHOTS, type TestBrowser } from '../../support/browser.js';
import { ADMIN, KEY_FOR_TESTS, startConsoleServer, type ConsoleServer } from './console-server.js';

const databases = inject('postgresMode') === 'server' ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);
const runs = browserAvailable();
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

async function downloadedBytes(page: Page, row: string): Promise<Buffer> {
  await page.getByRole('button', { name: `Actions for ${row}` }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('menu', { name: `Actions for ${row}` }).getByRole('menuitem', { name: 'Download' }).click()]);
  return fs.readFileSync(await download.path());
}

describe.runIf(runs).each(databases)('the web console in Chromium [%s]', (database) => {
  let site: ConsoleServer;
  let browser: TestBrowser;
  const shots = database === 'sqlite';
  const screenshot = async (page: Page, name: string) => {
    if (!shots) return;
    await page.waitForTimeout(300); // let dialogs finish fading in
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
  };

  beforeAll(async () => {
    [site, browser] = await Promise.all([startConsoleServer(database), launchBrowser()]);
    const dana = await site.admin('POST', '/users', { username: DANA.username, password: DANA.password });
    await site.admin('POST', '/folders/Team', { mkdir_parents: true });
    await site.admin('POST', '/folders/Archive', { mkdir_parents: true });
    await site.admin('POST', '/permissions', { path: 'Team', user_id: dana.id, permission: 'full' });
    await site.admin('POST', '/permissions', { path: 'Archive', user_id: dana.id, permission: 'readonly' });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await site?.stop();
  });

  it('signs in, goes back to the address asked for, and signs out for good', async () => {
    const page = await browser.context.newPage();
    const problems = pageProblems(page);
    await page.goto(`${site.baseUrl}/files/Team`);
    await expect.poll(() => page.url()).toContain('/sign-in?next=%2Ffiles%2FTeam');
    await expectAccessible(page);
    await screenshot(page, 'sign-in');

    await signInAs(page, { username: DANA.username, password: 'not the password at all' });
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('The username or password is not valid.');
    await signInAs(page, { username: 'nobody-by-this-name', password: 'not the password at all' });
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('The username or password is not valid.');
    await screenshot(page, 'sign-in-failed');

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

  it('works with files: folders, uploads by drag and drop with progress, letters, download, move, delete', async () => {
    const page = await browser.context.newPage();
    const problems = pageProblems(page);
    await page.goto(`${site.baseUrl}/`);
    await signInAs(page, DANA);
    const table = page.getByRole('table');
    await table.getByRole('link', { name: 'Team' }).waitFor();
    expect(await page.locator('[data-entry="Archive"] td').nth(4).textContent()).toBe('lr--');
    expect(await page.locator('[data-entry="Team"] td').nth(4).textContent()).toBe('lrwd');
    // No administration for a regular user.
    expect(await page.getByRole('link', { name: /administration|users|groups|workspaces|site settings/i }).count()).toBe(0);

    await table.getByRole('link', { name: 'Team' }).click();
    await page.getByText('This folder is empty.').waitFor();
    await page.getByRole('button', { name: 'New folder' }).click();
    await page.getByLabel('Folder name').fill('Plans');
    await page.getByRole('button', { name: 'Create' }).click();
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
    await screenshot(page, 'uploading');
    await page.locator(`[data-entry="${HOSTILE.replace(/"/g, '\\"')}"]`).waitFor({ timeout: 60_000 });
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    const progress: number[] = await page.evaluate(() => (globalThis as any).bigProgress);
    expect(progress.some((p) => p > 0 && p < 100)).toBe(true);
    expect(progress[progress.length - 1]).toBe(100);
    for (const name of ['notes.txt', 'big.bin']) await page.locator(`[data-entry="${name}"]`).waitFor();

    // The hostile name is text: no image element, no script ran.
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.getByText(HOSTILE, { exact: true }).count()).toBeGreaterThan(0);
    expect(await page.locator('[data-entry="big.bin"] td').nth(2).textContent()).toBe('20.0 MB');
    expect(await page.locator('[data-entry="notes.txt"] td').nth(4).textContent()).toBe('lrwd');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Clear finished' }).click();
    await screenshot(page, 'files');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page);
    await screenshot(page, 'files-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // Keyboard only: the row's actions open with Enter and their items take the focus.
    await page.getByRole('button', { name: 'Actions for notes.txt' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menu', { name: 'Actions for notes.txt' }).waitFor();
    await expect.poll(() => page.evaluate(() => (globalThis as any).document.activeElement?.closest('[role="menu"]') !== null)).toBe(true);
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.evaluate(() => (globalThis as any).document.activeElement?.getAttribute('role'))).toBe('menuitem');
    await page.keyboard.press('Escape');
    await page.getByRole('menu', { name: 'Actions for notes.txt' }).waitFor({ state: 'hidden' });

    expect((await downloadedBytes(page, 'notes.txt')).toString()).toBe('first notes\n');
    const big = await downloadedBytes(page, 'big.bin');
    expect(createHash('sha256').update(big).digest('hex')).toBe(createHash('sha256').update(bigFileBytes(20 * MiB)).digest('hex'));

    await page.getByRole('button', { name: 'Actions for notes.txt' }).click();
    await page.getByRole('menu', { name: 'Actions for notes.txt' }).getByRole('menuitem', { name: 'Rename or move' }).click();
    await page.getByLabel(/New path/).fill('Team/Plans/notes-2026.txt');
    await page.getByRole('button', { name: 'Move' }).click();
    await page.locator('[data-entry="notes.txt"]').waitFor({ state: 'detached' });
    await table.getByRole('link', { name: 'Plans' }).click();
    await page.locator('[data-entry="notes-2026.txt"]').waitFor();
    await page.getByRole('navigation', { name: 'Folder path' }).getByRole('link', { name: 'Team' }).click();

    await page.getByRole('button', { name: `Actions for ${HOSTILE}` }).click();
    await page.getByRole('menu', { name: `Actions for ${HOSTILE}` }).getByRole('menuitem', { name: 'Delete' }).click();
    await screenshot(page, 'delete-confirmation');
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
    expect(await page.getByRole('button', { name: 'Upload files' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'New folder' }).isDisabled()).toBe(true);
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
    await expectAccessible(page);
    await screenshot(page, 'files-sorted');

    // The address keeps the order: a reload lists the same way.
    await page.reload();
    await page.locator('[data-entry="tiny.txt"]').waitFor();
    expect(await shown()).toEqual(['Sub', 'large.txt', 'medium.txt', 'tiny.txt', 'small.txt']);
    expect(await page.getByRole('columnheader', { name: 'Size' }).getAttribute('aria-sort')).toBe('descending');

    // Back to names, A to Z, and a bare address.
    await page.getByRole('columnheader', { name: 'Name' }).getByRole('button').click();
    await expect.poll(shown).toEqual(['Sub', 'large.txt', 'medium.txt', 'small.txt', 'tiny.txt']);
    expect(new URL(page.url()).search).toBe('');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('my account: keys shown once, the reauthentication dialog, a password change', async () => {
    const mia = await site.admin('POST', '/users', { username: 'mia', password: 'mia has a long password' });
    const page = await browser.context.newPage();
    const problems = pageProblems(page);
    await page.goto(`${site.baseUrl}/account`);
    await signInAs(page, { username: 'mia', password: 'mia has a long password' });
    await page.getByRole('heading', { name: 'My account' }).waitFor();
    await page.getByText('You have no API keys.').waitFor();
    await expectAccessible(page);

    await page.getByLabel('Key name').fill('sync laptop');
    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
    await dialog.getByRole('textbox', { name: 'Your password' }).fill('not my password');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await dialog.getByRole('alert').getByText('That password is not right. Nothing was changed.').waitFor();
    await page.waitForTimeout(300); // the dialog's fade-in
    await expectAccessible(page);
    expect(await site.admin('GET', `/api_keys?user_id=${mia.id}`)).toEqual([]);
    await screenshot(page, 'reauthentication');
    await dialog.getByRole('textbox', { name: 'Your password' }).fill('mia has a long password');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    const secret = (await page.getByTestId('new-key-secret').textContent()) ?? '';
    expect(secret).toMatch(/^atr_[A-Za-z0-9_-]{43}$/);
    await screenshot(page, 'api-key-created');
    const asKey = await fetch(`${site.baseUrl}/api/rest/v1/folders/`, { headers: { 'X-ServiceAPI-Key': secret } });
    expect(asKey.status).toBe(200);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.locator('[data-key="sync laptop"]').waitFor();
    expect(await page.content()).not.toContain(secret);
    await page.reload();
    await page.locator('[data-key="sync laptop"]').waitFor();
    expect(await page.content()).not.toContain(secret);
    await screenshot(page, 'account');

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
    expect(problems).toEqual([]);
    await page.close();
  });

  it('the Workspace switcher: for a Workspace 0 administrator, never for a Custom Workspace user', async () => {
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
    await switcher.click();
    await page.getByRole('option', { name: 'Acme' }).click();
    await page.getByRole('table').getByRole('link', { name: 'Reports' }).waitFor();
    await expect.poll(() => switcher.inputValue()).toBe('Acme');
    await expectAccessible(page);
    await screenshot(page, 'workspace-switcher');
    await page.reload();
    await page.getByRole('table').getByRole('link', { name: 'Reports' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();

    await signInAs(page, { username: 'cara', password: 'cara has a long password' });
    await page.getByRole('table').getByRole('link', { name: 'Reports' }).waitFor();
    expect(await page.getByRole('combobox', { name: 'Workspace' }).count()).toBe(0);
    await page.getByLabel('Current Workspace: Acme').waitFor();
    await page.setViewportSize({ width: 375, height: 700 });
    await expectAccessible(page);
    await screenshot(page, 'files-narrow');
    await page.close();
  });

  it('administration of users: a site administrator creates and disables; a Workspace administrator sees only their Workspace', async () => {
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
    await expectAccessible(page);
    await screenshot(page, 'users');

    await page.getByRole('button', { name: 'Actions for newbie' }).click();
    await page.getByRole('menu', { name: 'Actions for newbie' }).getByRole('menuitem', { name: 'Disable' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm it is you' });
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
    await access.locator('[data-user-grant="Team"]').getByText('full').waitFor();
    await access.locator('[data-user-grant="Archive"]').getByText('readonly').waitFor();
    await access.getByLabel('Key name').fill('dana backup job');
    await access.getByRole('button', { name: 'Create key' }).click();
    await confirm.getByRole('textbox', { name: 'Your password' }).fill(ADMIN.password);
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    const secret = (await page.getByTestId('new-key-secret').textContent()) ?? '';
    expect(secret).toMatch(/^atr_/);
    const asDana = await fetch(`${site.baseUrl}/api/rest/v1/folders/Team`, { headers: { 'X-ServiceAPI-Key': secret } });
    expect(asDana.status).toBe(200);
    await page.getByRole('button', { name: 'Done' }).click();
    await access.locator('[data-key="dana backup job"]').waitFor();
    await page.waitForTimeout(300);
    await expectAccessible(page);
    await screenshot(page, 'user-access');
    await access.getByRole('button', { name: 'Close' }).click();

    await page.getByLabel('User name').fill('newbie');
    await page.getByRole('button', { name: 'Find' }).click();
    await expect.poll(() => page.locator('[data-user]').count()).toBe(1);
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
    expect(problems).toEqual([]);
    await page.close();
  });

  it('site administration: Workspaces created, renamed and deleted; site settings saved after reauthentication', async () => {
    const page = await browser.context.newPage();
    const problems = pageProblems(page);
    await page.goto(`${site.baseUrl}/admin/workspaces`);
    await signInAs(page, ADMIN);
    await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
    await page.getByRole('button', { name: 'New Workspace' }).click();
    await page.getByRole('dialog', { name: 'New Workspace' }).getByLabel('Name').fill('Initech');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.locator('[data-workspace="Initech"]').waitFor();
    await page.getByRole('button', { name: 'Rename Initech' }).click();
    await page.getByRole('dialog', { name: 'Rename Workspace' }).getByLabel('Name').fill('Initrode');
    await page.getByRole('dialog', { name: 'Rename Workspace' }).getByRole('button', { name: 'Rename' }).click();
    await page.locator('[data-workspace="Initrode"]').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'workspaces');
    await page.getByRole('button', { name: 'Delete Initrode' }).click();
    await page.getByRole('dialog', { name: 'Delete Workspace' }).getByRole('button', { name: 'Delete' }).click();
    await page.locator('[data-workspace="Initrode"]').waitFor({ state: 'detached' });
    expect((await site.admin('GET', '/workspaces')).map((w: any) => w.name)).not.toContain('Initrode');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Site settings' }).click();
    await page.getByLabel('Shortest password allowed').fill('14');
    await page.getByRole('button', { name: 'Save' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm it is you' });
    await confirm.getByRole('textbox', { name: 'Your password' }).fill(ADMIN.password);
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('The settings were saved.').waitFor();
    await confirm.waitFor({ state: 'hidden' });
    expect((await site.admin('GET', '/site')).password_min_length).toBe(14);
    await expectAccessible(page);
    await screenshot(page, 'site-settings');
    await site.admin('PATCH', '/site', { password_min_length: 12 });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('why can this be reached: for oneself, and by an administrator for a user', async () => {
    const auditors = await site.admin('POST', '/groups', { name: 'Auditors', user_ids: String((await site.admin('GET', '/users?filter[username]=dana'))[0].id) });
    await site.admin('POST', '/folders/Ledger', { mkdir_parents: true });
    await site.admin('POST', '/permissions', { path: 'Ledger', group_id: auditors.id, permission: 'readonly' });
    const page = await browser.context.newPage();
    await page.goto(`${site.baseUrl}/`);
    await signInAs(page, DANA);
    await page.getByRole('button', { name: 'Actions for Ledger' }).click();
    await page.getByRole('menu', { name: 'Actions for Ledger' }).getByRole('menuitem', { name: 'Why can this be reached?' }).click();
    const explanation = page.getByTestId('explanation');
    await explanation.getByText('read: readonly on “Ledger”, given to the group Auditors').waitFor();
    expect(await explanation.getByText('write', { exact: true }).count()).toBe(0);
    expect(await page.getByLabel('For the user').count()).toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'explain');
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();

    await signInAs(page, ADMIN);
    await page.getByRole('button', { name: 'Actions for Team' }).click();
    await page.getByRole('menu', { name: 'Actions for Team' }).getByRole('menuitem', { name: 'Why can this be reached?' }).click();
    await page.getByTestId('explanation').getByText('Site Administrator', { exact: true }).waitFor();
    await page.getByLabel('For the user').fill(DANA.username);
    await page.getByRole('button', { name: 'Explain' }).click();
    await page.getByTestId('explanation').getByText('delete: full on “Team”, given to the user').waitFor();
    await page.close();
  });

  it('groups: a Workspace administrator appoints a Group Admin, who then manages the members but appoints no one', async () => {
    const umbrella = await site.admin('POST', '/workspaces', { name: 'Umbrella' });
    for (const [username, flags] of [['uma', { workspace_admin: true }], ['ugo', {}], ['ulla', {}]] as const) {
      await site.admin('POST', '/users', { username, password: `${username} has a long password`, workspace_id: umbrella.id, ...flags });
    }
    const page = await browser.context.newPage();
    const problems = pageProblems(page);
    await page.goto(`${site.baseUrl}/admin/groups`);
    await signInAs(page, { username: 'uma', password: 'uma has a long password' });
    await page.getByRole('button', { name: 'New group' }).click();
    await page.getByRole('dialog', { name: 'New group' }).getByLabel('Name').fill('Ops');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('button', { name: 'Members of Ops' }).click();
    await page.getByLabel('User name').fill('ugo');
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.locator('[data-member="ugo"]').getByRole('button', { name: 'Make Group Admin' }).click();
    await page.locator('[data-member="ugo"]').getByText('Group Admin', { exact: true }).waitFor();
    await page.getByLabel('User name').fill('ulla');
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.locator('[data-member="ulla"]').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'groups');
    await page.getByRole('button', { name: 'Sign out' }).click();

    await signInAs(page, { username: 'ugo', password: 'ugo has a long password' });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Groups' }).click();
    await page.getByRole('button', { name: 'Members of Ops' }).click();
    expect(await page.getByRole('button', { name: 'New group' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /Make/ }).count()).toBe(0);
    await page.getByRole('button', { name: 'Remove ulla' }).click();
    await page.locator('[data-member="ulla"]').waitFor({ state: 'detached' });
    const members = await site.admin('GET', `/group_users?group_id=${(await site.admin('GET', '/groups', undefined, umbrella.id))[0].id}`, undefined, umbrella.id);
    expect(members.map((m: any) => m.username)).toEqual(['ugo']);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('folder permissions: added after the replacement is shown, replaced, removed', async () => {
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
      await page.getByRole('option', { name: level, exact: true }).click();
      await dialog.getByRole('button', { name: 'Review' }).click();
      await dialog.getByTestId('replacement-preview').waitFor();
    };
    await grant('readonly');
    await dialog.getByTestId('replacement-preview').getByText('None of theirs is in its way.').waitFor();
    await dialog.getByRole('button', { name: 'Add permission' }).click();
    await dialog.locator('[data-grant="user dana"]').getByText('readonly').waitFor();

    await grant('full');
    await dialog.getByTestId('replacement-preview').getByText('readonly on “Projects”').waitFor();
    await page.waitForTimeout(300);
    await expectAccessible(page);
    await screenshot(page, 'folder-permissions');
    await dialog.getByRole('button', { name: 'Add permission' }).click();
    await dialog.getByText('The permission was added and replaced 1 redundant grant.').waitFor();
    const onProjects = await site.admin('GET', '/permissions?path=Projects');
    expect(onProjects.map((p: any) => p.permission)).toEqual(['full']);

    await dialog.getByRole('button', { name: 'Remove full for user dana' }).click();
    await dialog.getByText('No permission is given on this folder itself.').waitFor();
    expect(await site.admin('GET', '/permissions?path=Projects')).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it.runIf(database === 'sqlite')('shows the lockout message while the account is locked', async () => {
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
    await screenshot(page, 'sign-in-locked');
    await page.close();
  });

  it.runIf(database === 'sqlite')('a page on another origin cannot act with the cookie: neither a form post nor a script', async () => {
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

  // The server's idle clock counts in minutes: this test waits one out for real.
  it.runIf(database === 'sqlite')('after the idle timeout says so, and after signing in goes back where the person was', async () => {
    await site.admin('PATCH', '/site', { session_expiry_minutes: 1 });
    const page = await browser.context.newPage();
    await page.goto(`${site.baseUrl}/files`);
    await signInAs(page, DANA);
    await page.getByRole('table').getByRole('link', { name: 'Archive' }).waitFor();
    await page.waitForTimeout(62_000);
    await page.getByRole('table').getByRole('link', { name: 'Archive' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.getByRole('status').textContent()).toBe('You were signed out after 1 minute of inactivity. Sign in again to continue.');
    await screenshot(page, 'signed-out-inactive');
    await signInAs(page, DANA);
    await page.getByRole('navigation', { name: 'Folder path' }).getByText('Archive').waitFor();
    expect(new URL(page.url()).pathname).toBe('/files/Archive');
    await site.admin('PATCH', '/site', { session_expiry_minutes: 360 });
    await page.close();
  }, 120_000);
});
