import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_OPTIONS } from '../../../bench/console/chromium.js';
import { browserAvailable, chromiumPerTest, expectAccessible, pageProblems, sidewaysScrollers } from '../../support/browser.js';
import { ADMIN, startConsoleServer, type ConsoleServer } from './console-server.js';
import { CONSOLE_DATABASES, itOnSqliteAlone } from './console-databases.js';

const DANA = { username: 'dana', password: 'dana has a long password' };
const HOSTILE_GROUP = '<img src=x onerror=alert(1)> crew';
// One Chromium for the file, both databases' runs; each test in a context of its own.
const browser = chromiumPerTest();

async function signInAs(page: Page, who: { username: string; password: string }) {
  await page.getByLabel('Username').fill(who.username);
  await page.getByRole('textbox', { name: 'Password' }).fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Waits for the History screen to have its answer (the list, the empty state or an error). */
async function settled(page: Page) {
  await page.locator('[data-loading="false"]').waitFor();
}

/** The actions of the rows shown, top to bottom. */
async function shownActions(page: Page): Promise<string[]> {
  return page.locator('tr[data-action]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-action') ?? ''));
}

/** The user names of the rows shown. */
async function shownUsers(page: Page): Promise<string[]> {
  return page.locator('tr[data-action] td:nth-child(2)').allTextContents();
}

/**
 * The console's History screen (docs/console.md), on the real server and its History read API:
 * what was done, by whom, through which door; filters kept in the address; each person sees what
 * the server lets them see; every recorded text shown as text.
 */
describe.runIf(browserAvailable()).each(CONSOLE_DATABASES)('the History screen in Chromium [%s]', (database) => {
  const itOnSqlite = itOnSqliteAlone(database);
  let site: ConsoleServer;

  beforeAll(async () => {
    site = await startConsoleServer(database);
    const dana = await site.admin('POST', '/users', { username: DANA.username, password: DANA.password });
    await site.admin('POST', '/folders/Team', { mkdir_parents: true });
    // A change on the folder: recorded with its path, and not dana's own action though it is about her.
    await site.admin('POST', '/permissions', { path: 'Team', user_id: dana.id, permission: 'readonly' });
    // Recorded with its name in the display text; the site-wide key has no user.
    const hostile = await site.admin('POST', '/groups', { name: HOSTILE_GROUP });
    // A member added: History records the id; the console names who.
    await site.admin('PATCH', `/groups/${hostile.id}`, { user_ids: String(dana.id) });
    // A folder made in a Custom Workspace: History keeps its path under the Workspaces folder.
    const research = await site.admin('POST', '/workspaces', { name: 'Research' });
    await site.admin('POST', '/folders/Lab', { mkdir_parents: true }, research.id);
  }, 60_000);
  afterAll(async () => {
    await site?.stop();
  });

  itOnSqlite('an administrator sees their change with its label and name, filters by action in the address, reloads and goes back', async () => {
    const page = await browser.context.newPage();
    const problems = pageProblems(page);
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => { dialogs.push(dialog.message()); void dialog.dismiss(); });
    await page.goto(`${site.baseUrl}/`);
    await signInAs(page, ADMIN);

    // A change made in the console: a new user.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
    await page.getByRole('button', { name: 'New user' }).click();
    const create = page.getByRole('dialog', { name: 'New user' });
    await create.getByLabel('User name').fill('hist-newbie');
    await create.getByRole('textbox', { name: 'Password' }).fill('hist-newbie has a long password');
    await create.getByRole('button', { name: 'Create user' }).click();
    await page.locator('[data-user="hist-newbie"]').waitFor();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'History' }).click();
    await page.getByRole('heading', { name: 'History' }).waitFor();
    const created = page.locator('tr[data-action="user_create"]', { hasText: 'hist-newbie' });
    await created.waitFor();
    expect(await created.locator('td').nth(1).textContent()).toBe(ADMIN.username);
    expect(await created.locator('td').nth(2).textContent()).toBe('Created user');
    expect(await created.locator('td').nth(4).textContent()).toContain('hist-newbie');
    expect(await created.locator('td').nth(5).textContent()).toBe('Web');
    // Local time on screen, the exact time in the tooltip.
    expect(await created.locator('time').getAttribute('title')).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    // Newest first: the user just created is above the administrator's sign-in.
    const actions = await shownActions(page);
    expect(actions.indexOf('user_create')).toBeLessThan(actions.lastIndexOf('login'));
    expect(actions).toContain('group_create');

    // The hostile group name is text: no image element, nothing ran.
    const group = page.locator('tr[data-action="group_create"]');
    expect(await group.locator('td').nth(4).textContent()).toContain(HOSTILE_GROUP);
    expect(await group.locator('td').nth(1).textContent()).toBe('Site key');
    await group.getByRole('button', { name: /^Details of record/ }).click();
    await page.locator('dd', { hasText: HOSTILE_GROUP }).first().waitFor();
    expect(await page.locator('img').count()).toBe(0);
    await expectAccessible(page, 'history, a record\'s details open');
    await group.getByRole('button', { name: /^Details of record/ }).click();
    // "1 member(s) added" in the API's words; the console says who.
    const joined = page.locator('tr[data-action="group_update"]');
    await expect.poll(() => joined.locator('td').nth(4).textContent()).toContain(`added ${DANA.username}`);
    expect(await joined.locator('td').nth(4).textContent()).not.toContain('member(s)');

    // A path in a Custom Workspace, read from the Default Workspace: its Workspace by name, not the
    // Workspaces folder's number.
    const lab = page.locator('tr[data-action="create"]', { hasText: 'Lab' });
    expect(await lab.locator('td').nth(3).textContent()).toBe('Research: Lab');
    expect(await lab.locator('td').nth(4).textContent()).toBe('Created folder Research: Lab');
    // The API's own words stay in the tooltip.
    expect(await lab.locator('td').nth(4).getAttribute('title')).toMatch(/^Created folder \/?_\/Workspaces\/\d+\/Lab$/);
    expect((await page.locator('tr[data-action] td:nth-child(4)').allTextContents()).filter((shown) => shown.includes('_/'))).toEqual([]);

    // On a phone: when (and who), what (and where), and the button to the rest; nothing scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => lab.locator('td').nth(2).textContent()).toBe('Created folderResearch: Lab');
    expect(await created.locator('td').first().textContent()).toContain(ADMIN.username);
    expect(await sidewaysScrollers(page)).toEqual([]);
    await lab.getByRole('button', { name: /^Details of record/ }).click();
    // What the row leaves out on a phone is in the record's details.
    await page.locator('dd', { hasText: 'Created folder Research: Lab' }).waitFor();
    await page.locator('dt', { hasText: 'Interface' }).waitFor();
    expect(await sidewaysScrollers(page)).toEqual([]);
    await expectAccessible(page, 'history, 390 px, a record\'s details open');
    await lab.getByRole('button', { name: /^Details of record/ }).click();
    await page.setViewportSize(PAGE_OPTIONS.viewport);

    // Filtered by action: the list narrows, and the address says so.
    await page.getByLabel('Action', { exact: true }).selectOption({ label: 'Created user' });
    await expect.poll(() => new URL(page.url()).searchParams.get('action')).toBe('user_create');
    await expect.poll(async () => [...new Set(await shownActions(page))]).toEqual(['user_create']);
    await created.waitFor();

    // A reload keeps the view; so does a bookmark of it.
    await page.reload();
    await settled(page);
    await created.waitFor();
    expect([...new Set(await shownActions(page))]).toEqual(['user_create']);
    expect(await page.getByLabel('Action', { exact: true }).inputValue()).toBe('user_create');

    // Nothing matches a future day: the empty state.
    await page.getByLabel('From', { exact: true }).fill('2099-01-01');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('No recorded actions match these filters.').waitFor();
    expect(new URL(page.url()).searchParams.get('from')).toBe('2099-01-01');

    // Back returns to the views before, filters and all.
    await page.goBack();
    await created.waitFor();
    expect(await page.getByLabel('From', { exact: true }).inputValue()).toBe('');
    expect(await page.getByLabel('Action', { exact: true }).inputValue()).toBe('user_create');
    await page.goBack();
    await page.locator('tr[data-action="login"]').first().waitFor();
    expect(await page.getByLabel('Action', { exact: true }).inputValue()).toBe('');

    // Every sign-in record, from their own list.
    await page.getByLabel('Action', { exact: true }).selectOption({ label: 'Any sign-in or sign-out' });
    await settled(page);
    // Polled until the new list is shown: an empty table while it loads would pass the first check vacuously.
    await expect.poll(async () => {
      const shown = await shownActions(page);
      return shown.includes('login') && shown.every((a) => ['login', 'failedlogin', 'logout', 'failedreauth'].includes(a));
    }).toBe(true);

    expect(dialogs).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  itOnSqlite('a regular user sees only their own records: their sign-ins, not the administrator\'s changes', async () => {
    const page = await browser.context.newPage();
    const problems = pageProblems(page);
    await page.goto(`${site.baseUrl}/`);
    await signInAs(page, { username: DANA.username, password: 'not the password at all' });
    await page.getByRole('alert').waitFor();
    await signInAs(page, DANA);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'History' }).click();
    await page.locator('tr[data-action="login"]').first().waitFor();
    await settled(page);

    expect(new Set(await shownUsers(page))).toEqual(new Set([DANA.username]));
    const actions = await shownActions(page);
    expect(actions).not.toContain('user_create');
    expect(actions).not.toContain('group_create');
    expect(actions).not.toContain('permission_create');
    const failed = page.locator('tr[data-action="failedlogin"]');
    expect(await failed.locator('td').nth(2).textContent()).toBe('Sign-in failed (wrong password)');
    expect(await page.getByText(HOSTILE_GROUP).count()).toBe(0);
    await expectAccessible(page, 'history, a regular user');
    // A user's name narrows the view to them, in the address.
    await page.locator('tr[data-action="login"]').first().getByRole('link', { name: DANA.username }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('user')).toBe(DANA.username);
    // The field follows the address on the next render: polled, not read once.
    await expect.poll(() => page.getByLabel('User', { exact: true }).inputValue()).toBe(DANA.username);
    await settled(page);
    await page.locator('tr[data-action="login"]').first().waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });

  itOnSqlite('a folder\'s menu on the Files page opens its history', async () => {
    const page = await browser.context.newPage();
    const problems = pageProblems(page);
    await page.goto(`${site.baseUrl}/`);
    await signInAs(page, ADMIN);
    await page.getByRole('button', { name: 'Actions for Team' }).click();
    await page.getByRole('menu', { name: 'Actions for Team' }).getByRole('menuitem', { name: 'History' }).click();
    await page.getByRole('heading', { name: 'History' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/history');
    expect(new URL(page.url()).searchParams.get('folder')).toBe('Team');
    expect(await page.getByLabel('Folder', { exact: true }).inputValue()).toBe('Team');
    await page.locator('tr[data-action="permission_create"]').waitFor();
    expect(await page.locator('tr[data-action="permission_create"] td').nth(2).textContent()).toBe('Granted permission');
    // Only actions on paths in the folder: no sign-ins, no user or group changes.
    const actions = await shownActions(page);
    expect(actions.filter((a) => !['create', 'read', 'update', 'destroy', 'move', 'copy', 'permission_create', 'permission_destroy'].includes(a))).toEqual([]);
    const paths = await page.locator('tr[data-action] td:nth-child(4)').allTextContents();
    for (const shown of paths) expect(shown).toMatch(/^Team(\/|$| →)/);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('pages with the cursor: the next page comes when the end of the list is reached', async () => {
    let next = 0;
    const worker = async () => {
      while (next < 120) await site.admin('POST', '/groups', { name: `paged group ${String(next++).padStart(3, '0')}` });
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    const page = await browser.context.newPage();
    const problems = pageProblems(page);
    await page.goto(`${site.baseUrl}/history?action=group_create`);
    await signInAs(page, ADMIN);
    await page.getByRole('heading', { name: 'History' }).waitFor();
    await settled(page);
    // One page of 100, newest first, then the rest when the end scrolls into view.
    expect(await page.locator('tr[data-action="group_create"]').count()).toBe(100);
    expect(await page.locator('tr[data-action] td:nth-child(5)').first().textContent()).toMatch(/^Created group paged group \d{3}/);
    await page.getByRole('button', { name: 'Load more' }).scrollIntoViewIfNeeded();
    await expect.poll(() => page.locator('tr[data-action="group_create"]').count()).toBe(121);
    await settled(page);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    // The oldest, the hostile group made before the rest, comes last; no record twice.
    expect(await page.locator('tr[data-action] td:nth-child(5)').last().textContent()).toContain(HOSTILE_GROUP);
    const ids = await page.locator('tr[data-record]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-record')));
    expect(new Set(ids).size).toBe(ids.length);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});
