import path from 'node:path';
import { generate } from 'otplib';
import type { Browser, Locator, Page } from 'playwright-core';
import { ADMIN, KEY_FOR_TESTS, startConsoleServer, type ConsoleServer } from '../../test/process/console/console-server.js';
import { launchChromiumBrowser, PAGE_OPTIONS } from './chromium.js';
import { settled } from './page-settled.js';

/**
 * The pictures of docs/console.md, made on purpose by `npm run screenshots` and never by the
 * tests: the built server on a fresh SQLite database, started as the browser tests start it, and
 * Chromium driven through the same screens, each tour in a fresh context. Writes
 * docs/console/<name>.png; `git diff --stat docs/console` then shows which pictures changed.
 */

const OUT = path.resolve('docs/console');
const MiB = 1024 * 1024;
const HOSTILE = '<img src=x onerror=alert(1)>.txt';

interface Person { username: string; password: string }
const DANA: Person = { username: 'dana', password: 'dana has a long password' };
const person = (username: string): Person => ({ username, password: `${username} has a long password` });

/** What a tour is given: the site, a page of its own, and the camera. */
interface Tour {
  site: ConsoleServer;
  page: Page;
  /**
   * Takes the picture `name` once the page is still (a dialog fully faded in); of a page that is
   * never still (a progress bar moving), with its motion stopped instead.
   */
  shoot(name: string, moving?: 'moving', frame?: 'window'): Promise<void>;
}

async function signIn(page: Page, who: Person): Promise<void> {
  await page.getByLabel('Username').fill(who.username);
  await page.getByRole('textbox', { name: 'Password' }).fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
}

/** Opens a row's menu of actions and picks `item`. */
async function rowAction(page: Page, row: string, item: string): Promise<void> {
  await page.getByRole('button', { name: `Actions for ${row}` }).click();
  await page.getByRole('menu', { name: `Actions for ${row}` }).getByRole('menuitem', { name: item }).click();
}

/** Answers the reauthentication dialog. */
async function confirmWith(page: Page, password: string): Promise<Locator> {
  const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
  await dialog.getByRole('textbox', { name: 'Your password' }).fill(password);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  return dialog;
}

/** A Custom Workspace and a user in it, made through the API. */
async function workspaceWithUser(site: ConsoleServer, workspace: string, username: string): Promise<{ workspaceId: number; userId: number; user: Person }> {
  const workspaceId: number = (await site.admin('POST', '/workspaces', { name: workspace })).id;
  const user = person(username);
  const userId: number = (await site.admin('POST', '/users', { ...user, workspace_id: workspaceId })).id;
  return { workspaceId, userId, user };
}

async function putFile(site: ConsoleServer, filePath: string, body: string | Buffer): Promise<void> {
  const response = await fetch(`${site.baseUrl}/api/rest/v1/files/${filePath.split('/').map(encodeURIComponent).join('/')}`, {
    method: 'PUT',
    headers: { 'X-ServiceAPI-Key': KEY_FOR_TESTS },
    body,
  });
  if (response.status !== 201) throw new Error(`PUT ${filePath}: ${response.status} ${await response.text()}`);
}

async function signInTour({ site, page, shoot }: Tour) {
  await page.goto(`${site.baseUrl}/files/Team`);
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  await shoot('sign-in');
  await signIn(page, { username: DANA.username, password: 'not the password at all' });
  await page.getByRole('alert').getByText('The username or password is not valid.').waitFor();
  await shoot('sign-in-failed');
}

async function lockoutTour({ site, page, shoot }: Tour) {
  const lee = person('lee');
  await site.admin('PATCH', '/site', { user_lockout: true, user_lockout_tries: 2 });
  await site.admin('POST', '/users', lee);
  await page.goto(`${site.baseUrl}/sign-in`);
  for (const attempt of ['first', 'second']) {
    await signIn(page, { username: lee.username, password: `the ${attempt} wrong password` });
    await page.getByRole('alert').getByText('The username or password is not valid.').waitFor();
  }
  await signIn(page, lee);
  await page.getByRole('alert').getByText(/locked/).waitFor();
  await shoot('sign-in-locked');
  await site.admin('PATCH', '/site', { user_lockout: false });
}

async function inactivityTour({ site, page, shoot }: Tour) {
  await site.admin('PATCH', '/site', { session_expiry_minutes: 1 });
  // The minute passes on the page's clock and in the session's row, not for the script.
  await page.clock.install();
  await page.goto(`${site.baseUrl}/files`);
  await signIn(page, DANA);
  const archive = page.getByRole('table').getByRole('link', { name: 'Archive' });
  await archive.waitFor();
  await site.ageSessions(62_000);
  await page.clock.fastForward(62_000);
  await archive.click();
  await page.getByRole('status').getByText('You were signed out after 1 minute of inactivity.', { exact: false }).waitFor();
  await shoot('signed-out-inactive');
  await site.admin('PATCH', '/site', { session_expiry_minutes: 360 });
}

async function filesTour({ site, page, shoot }: Tour) {
  await site.admin('POST', '/folders/Team/Plans', { mkdir_parents: true });
  await page.goto(`${site.baseUrl}/files/Team`);
  await signIn(page, DANA);
  await page.getByRole('table').getByRole('link', { name: 'Plans' }).waitFor();
  // A slow link, so that the large file is caught uploading.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 4 * MiB });
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Upload files' }).click()]);
  await chooser.setFiles([
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('first notes\n') },
    { name: 'big.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(20 * MiB, 7) },
    { name: HOSTILE, mimeType: 'text/plain', buffer: Buffer.from('hostile') },
  ]);
  await page.locator('[data-entry="notes.txt"]').waitFor();
  // Some of it sent, so that the bar shows how far it got.
  await page.locator('[data-upload="big.bin"]').getByText(/Uploading [1-9]/).waitFor();
  await shoot('uploading', 'moving');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await page.locator('[data-entry="big.bin"]').waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Clear finished' }).click();
  await shoot('files');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shoot('files-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await rowAction(page, HOSTILE, 'Delete');
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).waitFor();
  await shoot('delete-confirmation');
}

async function sortedTour({ site, page, shoot }: Tour) {
  await site.admin('POST', '/folders/Sizes/Sub', { mkdir_parents: true });
  for (const [name, size] of [['medium.txt', 2_000], ['large.txt', 30_000], ['small.txt', 10], ['tiny.txt', 10]] as const) await putFile(site, `Sizes/${name}`, 'x'.repeat(size));
  await page.goto(`${site.baseUrl}/files/Sizes`);
  await signIn(page, ADMIN);
  await page.locator('[data-entry="tiny.txt"]').waitFor();
  // The order is in the address: largest first.
  await page.goto(`${site.baseUrl}/files/Sizes?sort=size&dir=desc`);
  await page.locator('[data-entry="tiny.txt"]').waitFor();
  await shoot('files-sorted');
}

async function accountTour({ site, page, shoot }: Tour) {
  const mia = person('mia');
  await site.admin('POST', '/users', mia);
  await page.goto(`${site.baseUrl}/account`);
  await signIn(page, mia);
  await page.getByText('You have no API keys.').waitFor();
  await page.getByLabel('Key name').fill('sync laptop');
  await page.getByRole('button', { name: 'Create key' }).click();
  const dialog = await confirmWith(page, 'not my password');
  await dialog.getByRole('alert').waitFor();
  await shoot('reauthentication');
  await confirmWith(page, mia.password);
  await page.getByTestId('new-key-secret').waitFor();
  await shoot('api-key-created');
  await page.getByRole('button', { name: 'Done' }).click();
  await page.reload();
  await page.locator('[data-key="sync laptop"]').waitFor();
  await page.getByTestId('sftp-fingerprints').waitFor();
  await shoot('account');
  // The Connect panel alone, as the page shows it between the password form and the keys.
  // Clipped from the whole page, drawn from its top: a picture of the element alone would scroll it
  // under the header, which stays at the top of the window.
  await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
  await settled(page);
  const panel = await page.getByTestId('connect-panel').boundingBox();
  if (panel === null) throw new Error('the Connect panel is not drawn');
  await page.screenshot({ path: path.join(OUT, 'connect.png'), fullPage: true, clip: { x: panel.x - 16, y: panel.y - 16, width: panel.width + 32, height: panel.height + 32 } });
  process.stdout.write('docs/console/connect.png\n');
}

async function workspacesTour({ site, page, shoot }: Tour) {
  const { workspaceId: acme, userId: caraId, user: cara } = await workspaceWithUser(site, 'Acme', 'cara');
  await site.admin('POST', '/folders/Reports', {}, acme);
  await site.admin('POST', '/permissions', { path: 'Reports', user_id: caraId, permission: 'full' }, acme);
  await page.goto(`${site.baseUrl}/`);
  await signIn(page, ADMIN);
  const switcher = page.getByRole('combobox', { name: 'Workspace' });
  await switcher.click();
  await page.getByRole('option', { name: 'Acme' }).click();
  await page.getByRole('table').getByRole('link', { name: 'Reports' }).waitFor();
  await shoot('workspace-switcher');
  // Back to the Default Workspace: the choice is kept for the administrator, and the later tours sign in as them.
  await switcher.click();
  await page.getByRole('option', { name: 'Default Workspace' }).click();
  await page.getByRole('table').getByRole('link', { name: 'Team' }).waitFor();
  await signOut(page);
  await signIn(page, cara);
  await page.getByRole('table').getByRole('link', { name: 'Reports' }).waitFor();
  await page.setViewportSize({ width: 375, height: 700 });
  await shoot('files-narrow');
  await page.getByRole('button', { name: 'Open navigation' }).click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My account' }).waitFor();
  await shoot('navigation-narrow');
}

async function usersTour({ site, page, shoot }: Tour) {
  const dana = (await site.admin('GET', `/users?filter[username]=${DANA.username}`))[0];
  const keyholders = await site.admin('POST', '/workspaces', { name: 'Keyholders' });
  await site.admin('POST', '/api_keys', { user_id: dana.id, name: 'dana backup job' });
  await site.admin('POST', '/api_keys', { user_id: dana.id, name: 'dana keyholders job', workspace_id: keyholders.id });
  await site.admin('POST', '/users', { ...person('newbie'), name: '<b>Not bold</b>' });
  await page.goto(`${site.baseUrl}/admin/users`);
  await signIn(page, ADMIN);
  await page.locator('[data-user="newbie"]').waitFor();
  await shoot('users');
  await rowAction(page, 'newbie', 'Edit');
  const edit = page.getByRole('dialog', { name: 'Edit newbie' });
  await edit.getByLabel('Full name').fill('Newbie Newman');
  await edit.getByLabel('Email').fill('newbie@example.test');
  await shoot('user-edit');
  await page.keyboard.press('Escape');
  await edit.waitFor({ state: 'detached' });
  await rowAction(page, DANA.username, 'Permissions and API keys');
  const access = page.getByRole('dialog', { name: `Access of ${DANA.username}` });
  await access.locator('[data-key="dana keyholders job"]').waitFor();
  await access.locator('[data-user-grant="Team"]').waitFor();
  await shoot('user-access');
}

async function siteTour({ site, page, shoot }: Tour) {
  for (const name of ['Initrode', 'Globex']) await site.admin('POST', '/workspaces', { name });
  await page.goto(`${site.baseUrl}/admin/workspaces`);
  await signIn(page, ADMIN);
  await page.locator('[data-workspace="Initrode"]').waitFor();
  await shoot('workspaces');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Site settings' }).click();
  await page.getByLabel('Shortest password allowed').fill('14');
  await page.getByRole('button', { name: 'Save' }).click();
  const dialog = await confirmWith(page, ADMIN.password);
  await page.getByText('The settings were saved.').waitFor();
  await dialog.waitFor({ state: 'hidden' });
  await shoot('site-settings');
  await site.admin('PATCH', '/site', { password_min_length: 12 });
}

async function explainTour({ site, page, shoot }: Tour) {
  const dana = (await site.admin('GET', `/users?filter[username]=${DANA.username}`))[0];
  const auditors = await site.admin('POST', '/groups', { name: 'Auditors', user_ids: String(dana.id) });
  await site.admin('POST', '/folders/Ledger', {});
  await site.admin('POST', '/permissions', { path: 'Ledger', group_id: auditors.id, permission: 'readonly' });
  await page.goto(`${site.baseUrl}/`);
  await signIn(page, DANA);
  await rowAction(page, 'Ledger', 'Why can this be reached?');
  await page.getByTestId('explanation').getByText('See, Download: View and download on “Ledger”, given to the group Auditors').waitFor();
  await shoot('explain');
}

async function groupsTour({ site, page, shoot }: Tour) {
  const umbrella = await site.admin('POST', '/workspaces', { name: 'Umbrella' });
  const ids: Record<string, number> = {};
  for (const username of ['uma', 'ugo', 'ulla', 'uli']) {
    ids[username] = (await site.admin('POST', '/users', { ...person(username), workspace_id: umbrella.id, workspace_admin: username === 'uma' })).id;
  }
  await site.admin('POST', '/groups', { name: 'Ops', workspace_id: umbrella.id, user_ids: `${ids.ugo},${ids.ulla}`, admin_ids: String(ids.ugo) });
  await page.goto(`${site.baseUrl}/admin/groups`);
  await signIn(page, person('uma'));
  await page.getByRole('button', { name: 'Members of Ops' }).click();
  await page.locator('[data-member="ulla"]').waitFor();
  await shoot('groups');
  await signOut(page);
  await signIn(page, person('ugo'));
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Groups' }).click();
  await page.getByRole('button', { name: 'Members of Ops' }).click();
  await page.getByRole('combobox', { name: 'User name' }).fill('uli');
  await page.getByRole('button', { name: 'Add member' }).click();
  await page.getByRole('alert').getByText('type # and their user id', { exact: false }).waitFor();
  await shoot('group-admin-members');
}

async function permissionsTour({ site, page, shoot }: Tour) {
  const dana = (await site.admin('GET', `/users?filter[username]=${DANA.username}`))[0];
  await site.admin('POST', '/folders/Projects', {});
  await site.admin('POST', '/permissions', { path: 'Projects', user_id: dana.id, permission: 'readonly' });
  await page.goto(`${site.baseUrl}/`);
  await signIn(page, ADMIN);
  await rowAction(page, 'Projects', 'Who can reach this?');
  const reach = page.getByRole('dialog', { name: 'Who can reach this?' });
  await reach.locator('[data-reach="dana"]').waitFor();
  await shoot('who-can-reach');
  await reach.getByRole('button', { name: 'Close' }).click();
  await rowAction(page, 'Projects', 'Permissions');
  const dialog = page.getByRole('dialog', { name: 'Folder permissions' });
  await dialog.getByLabel('User name').fill(DANA.username);
  await dialog.getByRole('combobox', { name: 'Level' }).click();
  await page.getByRole('option', { name: /^Full access/ }).click();
  await dialog.getByRole('button', { name: 'Review' }).click();
  await dialog.getByTestId('replacement-preview').getByText('View and download on “Projects”').waitFor();
  await shoot('folder-permissions');
}

async function folderAdminTour({ site, page, shoot }: Tour) {
  const dana = (await site.admin('GET', `/users?filter[username]=${DANA.username}`))[0];
  const fred = person('fred');
  const fredId = (await site.admin('POST', '/users', fred)).id;
  await site.admin('POST', '/folders/Dept', {});
  await site.admin('POST', '/permissions', { path: 'Dept', user_id: fredId, permission: 'admin' });
  await page.goto(`${site.baseUrl}/files`);
  await signIn(page, fred);
  await rowAction(page, 'Dept', 'Permissions');
  const dialog = page.getByRole('dialog', { name: 'Folder permissions' });
  // fred sees no other user by name: he names dana by her id.
  await dialog.getByLabel('User name').fill(`#${dana.id}`);
  await dialog.getByRole('button', { name: 'Review' }).click();
  await dialog.getByRole('button', { name: 'Add permission' }).click();
  await dialog.getByText('The permission was added.').waitFor();
  await shoot('folder-admin-permissions');
}

async function workspaceByGrantTour({ site, page, shoot }: Tour) {
  const { workspaceId: wayne, userId: wandaId, user: wanda } = await workspaceWithUser(site, 'Wayne', 'wanda');
  const admins = await site.admin('POST', '/groups', { name: 'Wayne admins', workspace_id: wayne, user_ids: String(wandaId) });
  await site.admin('POST', '/permissions', { path: '', group_id: admins.id, permission: 'admin' }, wayne);
  await page.goto(`${site.baseUrl}/admin/groups`);
  await signIn(page, wanda);
  await page.getByRole('button', { name: 'Members of Wayne admins' }).waitFor();
  await shoot('workspace-admin-by-grant');
}

async function historyTour({ site, page, shoot }: Tour) {
  await site.admin('POST', '/groups', { name: '<img src=x onerror=alert(1)> crew' });
  await page.goto(`${site.baseUrl}/history`);
  await signIn(page, ADMIN);
  const group = page.locator('tr[data-action="group_create"]', { hasText: '<img' });
  await group.getByRole('button', { name: /^Details of record/ }).click();
  await page.locator('dd', { hasText: '<img src=x onerror=alert(1)> crew' }).first().waitFor();
  await shoot('history');
}

async function partnersTour({ site, page, shoot }: Tour) {
  const orbit: number = (await site.admin('POST', '/workspaces', { name: 'Orbit' })).id;
  const wendy = person('wendy');
  await site.admin('POST', '/users', { ...wendy, workspace_id: orbit, workspace_admin: true });
  const acme = await site.admin('POST', '/partners', { name: 'Acme', root_folder: 'Partners/Acme', allow_user_creation: true, tags: 'supplier', notes: 'Quarterly reports' }, orbit);
  await site.admin('POST', '/partners', { name: 'Globex', root_folder: 'Partners/Globex' }, orbit);
  const pat = person('pat');
  await site.admin('POST', '/users', { ...pat, partner_id: acme.id, partner_admin: true }, orbit);
  await site.admin('POST', '/users', { ...person('quinn'), partner_id: acme.id }, orbit);
  await site.admin('POST', '/permissions', { path: 'Partners/Acme', partner_id: acme.id, permission: 'full' }, orbit);
  await page.goto(`${site.baseUrl}/admin/partners`);
  await signIn(page, wendy);
  await page.locator('[data-partner="Globex"]').waitFor();
  await shoot('partners');
  await page.getByRole('link', { name: 'Acme' }).click();
  await page.locator('[data-partner-grant="Partners/Acme"]').waitFor();
  await shoot('partner');
  await signOut(page);
  await page.goto(`${site.baseUrl}/partner/users`);
  await signIn(page, pat);
  await page.locator('[data-partner-user="quinn"]').waitFor();
  await shoot('partner-users');
}

async function sharingTour({ site, page, shoot }: Tour) {
  const dana = (await site.admin('GET', `/users?filter[username]=${DANA.username}`))[0];
  await site.admin('POST', '/permissions', { path: 'Team', user_id: dana.id, permission: 'bundle' });
  await page.goto(`${site.baseUrl}/files`);
  await signIn(page, DANA);
  await rowAction(page, 'Team', 'Share');
  const dialog = page.getByRole('dialog', { name: 'Share Team' });
  await dialog.getByRole('textbox', { name: 'Description' }).fill('The plans for the auditors');
  await dialog.getByLabel('Password', { exact: true }).fill('a password for the auditors');
  await dialog.getByLabel('Expires').fill('2031-12-31T18:00');
  await shoot('share-dialog');
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const made = page.getByRole('dialog', { name: 'Link to Team' });
  await made.getByTestId('share-url').waitFor();
  await made.getByRole('textbox', { name: 'Email addresses' }).fill('auditor@example.com');
  await made.getByRole('button', { name: 'Record recipients' }).click();
  await made.getByRole('status').waitFor();
  await shoot('share-link-made');
  await made.getByRole('button', { name: 'Done' }).click();
  await rowAction(page, 'Team', 'Request files');
  const request = page.getByRole('dialog', { name: 'Request files into Team' });
  await request.getByRole('button', { name: 'Create request link' }).click();
  await page.getByRole('dialog', { name: 'Link to Team' }).getByRole('button', { name: 'Done' }).click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Shared links' }).click();
  await page.getByText('Upload only (file request)').waitFor();
  await page.getByRole('link', { name: 'Team' }).first().waitFor();
  await shoot('shared-links');
}

/** Automations: the list in words, an automation's page with its next runs and a run's log, the form. */
async function automationsTour({ site, page, shoot }: Tour) {
  await site.admin('POST', '/automations', { name: 'Archive the inbox', automation: 'copy_file', trigger: 'action', trigger_actions: ['create'], path: 'Team', destinations: ['Archive/%Y/'] });
  const nightly = await site.admin('POST', '/automations', {
    name: 'Clean up old exports', automation: 'delete_file', trigger: 'daily', schedule_times_of_day: ['02:00'], schedule_time_zone: 'Europe/Paris', path: 'Team', value: { older_than_days: 30 },
  });
  await site.admin('POST', `/automations/${nightly.id}/manual_run`, {});
  await page.goto(`${site.baseUrl}/admin/automations`);
  await signIn(page, ADMIN);
  await page.locator('[data-automation="Archive the inbox"]').waitFor();
  await shoot('automations');
  await page.goto(`${site.baseUrl}/admin/automations/${nightly.id}`);
  await page.getByTestId('next-run-times').waitFor();
  // The server's runner takes the run at its next poll: the page shows it once it has run.
  await page.getByRole('table', { name: 'Runs' }).getByText('success', { exact: true }).or(page.getByRole('table', { name: 'Runs' }).getByText('queued', { exact: true })).first().waitFor();
  await shoot('automation');
  await page.goto(`${site.baseUrl}/admin/automations`);
  await page.getByRole('button', { name: 'New automation' }).click();
  await page.getByRole('dialog', { name: 'New automation' }).waitFor();
  await shoot('automation-form');
}

/** The page a link's visitor sees (`/f/<code>`), in a browser that never signed in: the password, the files, a phone's width, a file request. */
async function linkPageTour({ site, page, shoot }: Tour) {
  const dana = (await site.admin('GET', `/users?filter[username]=${DANA.username}`))[0];
  for (const [name, words] of [['plan.txt', 'The plan, in three steps.'], ['budget.csv', 'item,amount\nrent,1200\n']]) {
    const put = await fetch(`${site.baseUrl}/api/rest/v1/files/Team/${name}`, { method: 'PUT', headers: { 'X-ServiceAPI-Key': KEY_FOR_TESTS }, body: words });
    if (put.status !== 201) throw new Error(`uploading ${name} answered ${put.status}`);
  }
  const link = await site.admin('POST', '/bundles', { paths: ['Team'], user_id: dana.id, password: 'a password for the auditors', description: 'The plans for the auditors' });
  await page.goto(`${site.baseUrl}/f/${link.code}`);
  const open = page.getByRole('form', { name: 'Open the link' });
  await open.getByRole('textbox', { name: 'Password' }).waitFor();
  await shoot('link-page-password');
  await open.getByRole('textbox', { name: 'Password' }).fill('a password for the auditors');
  await open.getByRole('button', { name: 'Open' }).click();
  await page.getByRole('button', { name: /Team/ }).or(page.getByRole('link', { name: 'Team' })).first().waitFor();
  await shoot('link-page');
  await page.setViewportSize({ width: 390, height: 844 });
  await shoot('link-page-narrow');
  const request = await site.admin('POST', '/bundles', { paths: ['Team'], user_id: dana.id, permissions: 'write', description: 'Send us your receipts' });
  await page.goto(`${site.baseUrl}/f/${request.code}`);
  await page.getByTestId('link-drop-zone').waitFor();
  await shoot('link-page-request');
}

/** Opening files (a PDF, a text with line numbers, also at a phone's width), the folder picker of a move, and rows ticked. */
async function openingTour({ site, page, shoot }: Tour) {
  await site.admin('POST', '/folders/Team/Reports/2026', { mkdir_parents: true });
  const pdf = '%PDF-1.1\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj '
    + '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 300 200]/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>>endobj '
    + '4 0 obj<</Length 52>>stream\nBT /F1 18 Tf 30 120 Td (Quarterly report) Tj ET\nendstream endobj '
    + '5 0 obj<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n';
  await putFile(site, 'Team/report.pdf', pdf);
  await putFile(site, 'Team/totals.py', 'import csv\n\n\ndef totals(path):\n    """The sum of each column of a CSV file."""\n    with open(path) as f:\n'
    + '        rows = list(csv.DictReader(f))\n    return {k: sum(float(r[k]) for r in rows) for k in rows[0]}\n');
  await putFile(site, 'Team/summary.txt', 'Three steps this quarter.\n');
  await page.goto(`${site.baseUrl}/files/Team`);
  await signIn(page, DANA);
  await page.locator('[data-entry="totals.py"]').waitFor();
  await page.getByRole('button', { name: 'report.pdf', exact: true }).click();
  await page.getByRole('dialog', { name: 'report.pdf' }).locator('iframe').waitFor();
  await page.waitForTimeout(1500); // the browser's PDF viewer draws in its frame, which nothing here can watch
  await shoot('preview-pdf');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'totals.py', exact: true }).click();
  await page.getByTestId('line-numbers').waitFor();
  await shoot('preview-text');
  await page.setViewportSize({ width: 390, height: 844 });
  await shoot('preview-text-narrow');
  await page.setViewportSize({ width: PAGE_OPTIONS.viewport.width, height: PAGE_OPTIONS.viewport.height });
  await page.keyboard.press('Escape');
  await rowAction(page, 'summary.txt', 'Move to…');
  const move = page.getByRole('dialog', { name: 'Move summary.txt' });
  await move.getByRole('button', { name: 'Browse…' }).click();
  await move.getByRole('button', { name: 'Open Reports' }).click();
  await move.getByRole('button', { name: 'Open 2026' }).waitFor();
  await shoot('move-picker');
  await page.keyboard.press('Escape');
  await page.getByRole('checkbox', { name: 'Select report.pdf' }).check();
  await page.getByRole('checkbox', { name: 'Select totals.py' }).check();
  await page.getByRole('region', { name: 'Selected items' }).waitFor();
  await shoot('files-selected');
}

/**
 * The trash and a file's versions, as dana meets them: what she deleted over WebDAV (a file and a
 * folder with what it held), one restored; the earlier contents of a file overwritten twice; a
 * search of her folder and below.
 */
async function recoveryTour({ site, page, shoot }: Tour) {
  const put = async (filePath: string, body: string) => {
    const response = await fetch(`${site.baseUrl}/api/rest/v1/files/${filePath.split('/').map(encodeURIComponent).join('/')}`, { method: 'PUT', headers: { 'X-ServiceAPI-Key': KEY_FOR_TESTS }, body });
    if (!response.ok) throw new Error(`PUT ${filePath}: ${response.status} ${await response.text()}`);
  };
  const davDelete = async (filePath: string) => {
    const response = await fetch(`${site.baseUrl}/dav/${filePath.split('/').map(encodeURIComponent).join('/')}`, {
      method: 'DELETE', headers: { Authorization: `Basic ${Buffer.from(`${DANA.username}:${DANA.password}`).toString('base64')}` },
    });
    if (response.status !== 204) throw new Error(`DELETE ${filePath} over WebDAV: ${response.status}`);
  };
  await site.admin('POST', '/folders/Team/Drafts/Photos', { mkdir_parents: true });
  await put('Team/Drafts/minutes.txt', 'Minutes of the first meeting.\n');
  await put('Team/Drafts/minutes.txt', 'Minutes of the first meeting, corrected.\n');
  await put('Team/Drafts/minutes.txt', 'Minutes of the first and second meetings.\n');
  await put('Team/Drafts/old-plan.txt', 'The plan before the new one.\n');
  await put('Team/Drafts/Photos/beach.txt', 'not really a photo\n');
  await put('Team/Drafts/Photos/hills.txt', 'not one either\n');
  await put('Team/Drafts/plans-for-2027.md', '# Plans for 2027\n');
  await davDelete('Team/Drafts/Photos');
  await davDelete('Team/Drafts/old-plan.txt');
  await page.goto(`${site.baseUrl}/trash`);
  await signIn(page, DANA);
  await page.locator('[data-trash="Team/Drafts/Photos"]').waitFor();
  await shoot('trash');
  // On a phone: where and when, the actions in one menu.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Actions for Team/Drafts/Photos' }).click();
  await page.getByRole('menu', { name: 'Actions for Team/Drafts/Photos' }).waitFor();
  await shoot('trash-narrow');
  await page.keyboard.press('Escape');
  await page.setViewportSize({ width: PAGE_OPTIONS.viewport.width, height: PAGE_OPTIONS.viewport.height });
  await page.getByRole('button', { name: 'Restore Team/Drafts/old-plan.txt' }).click();
  await page.getByRole('status').filter({ hasText: 'Restored to' }).waitFor();
  await shoot('trash-restored');
  await page.goto(`${site.baseUrl}/files/Team/Drafts`);
  await rowAction(page, 'minutes.txt', 'Versions');
  await page.getByRole('dialog', { name: 'Versions of minutes.txt' }).locator('[data-version]').nth(1).waitFor();
  await shoot('versions');
  await page.keyboard.press('Escape');
  await page.goto(`${site.baseUrl}/files/Team`);
  await page.getByRole('searchbox', { name: 'Search names in this folder and below' }).fill('plan');
  await page.getByRole('list', { name: 'Search results' }).waitFor();
  await shoot('search');
}

/**
 * Two-factor authentication from a person's side: setting up an authenticator app in My account
 * (the QR code and the key to type), the recovery codes shown once, and the sign-in's second step.
 * The app's codes are computed from the key the page shows, as the app would.
 */
async function twoFactorTour({ site, page, shoot }: Tour) {
  const tess = person('tess');
  await site.admin('POST', '/users', tess);
  await page.goto(`${site.baseUrl}/account`);
  await signIn(page, tess);
  const section = page.getByTestId('two-factor');
  await section.getByRole('button', { name: 'Set up an authenticator app' }).click();
  await confirmWith(page, tess.password);
  const setup = page.getByRole('dialog', { name: 'Set up an authenticator app' });
  await setup.getByRole('img', { name: 'QR code to scan with your authenticator app' }).waitFor();
  await shoot('two-factor-setup', undefined, 'window');
  const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').replace(/\s+/g, '');
  await setup.getByLabel('Enter the 6-digit code the app shows').fill(await generate({ secret }));
  await setup.getByRole('button', { name: 'Turn on' }).click();
  await page.getByRole('list', { name: 'Recovery codes' }).waitFor();
  await shoot('two-factor-recovery-codes', undefined, 'window');
  await page.getByLabel('I have saved these codes').check();
  await page.getByRole('button', { name: 'Done' }).click();
  await section.and(page.locator('[data-two-factor="on"]')).waitFor();
  await signOut(page);
  await signIn(page, tess);
  await page.getByLabel('Authentication code').waitFor();
  await shoot('sign-in-second-step');
}

/**
 * In this order: History first, while it holds a page of records rather than every tour's; a tour
 * that changes a site setting puts it back before the next begins.
 */
const TOURS = [historyTour, signInTour, lockoutTour, inactivityTour, filesTour, openingTour, recoveryTour, sortedTour, accountTour, twoFactorTour, workspacesTour, usersTour, siteTour, explainTour, groupsTour, permissionsTour, folderAdminTour, workspaceByGrantTour, partnersTour, automationsTour, sharingTour, linkPageTour];

async function main(): Promise<void> {
  let site: ConsoleServer | undefined;
  let browser: Browser | undefined;
  const stop = async () => {
    await browser?.close();
    await site?.stop();
  };
  process.once('SIGINT', () => void stop().finally(() => process.exit(130)));
  try {
    [site, browser] = await Promise.all([startConsoleServer('sqlite', { sftp: true }), launchChromiumBrowser()]);
    const dana = await site.admin('POST', '/users', DANA);
    for (const folder of ['Team', 'Archive']) await site.admin('POST', `/folders/${folder}`, {});
    await site.admin('POST', '/permissions', { path: 'Team', user_id: dana.id, permission: 'full' });
    await site.admin('POST', '/permissions', { path: 'Archive', user_id: dana.id, permission: 'readonly' });
    // SCREENSHOTS_TOURS=filesTour,openingTour takes only those tours' pictures.
    const only = process.env.SCREENSHOTS_TOURS?.split(',');
    for (const tour of TOURS.filter((t) => only === undefined || only.includes(t.name))) {
      const context = await browser.newContext(PAGE_OPTIONS);
      context.setDefaultTimeout(15_000);
      const page = await context.newPage();
      // `window`: what the window shows, for a dialog over a long page (a whole-page picture would show its shade ending midway).
      const shoot = async (name: string, moving?: 'moving', frame?: 'window') => {
        await page.mouse.move(0, 0); // off whatever was clicked last, which would show its hover colour
        // A whole-page picture of a scrolled page draws the sticky header where the window was, over
        // the middle of the page (Site settings after a save that scrolled to the form's end).
        await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
        if (moving === undefined) await settled(page);
        await page.screenshot({ path: path.join(OUT, `${name}.png`), fullPage: frame === undefined, animations: moving === undefined ? 'allow' : 'disabled' });
        process.stdout.write(`docs/console/${name}.png\n`);
      };
      try {
        await tour({ site, page, shoot });
      } finally {
        await context.close();
      }
    }
  } finally {
    await stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
