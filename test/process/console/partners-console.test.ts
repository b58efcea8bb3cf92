import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_OPTIONS } from '../../../bench/console/chromium.js';
import { browserAvailable, chromiumPerTest, expectAccessible, pageProblems, sidewaysScrollers } from '../../support/browser.js';
import { KEY_FOR_TESTS, startConsoleServer, type ConsoleServer } from './console-server.js';
import { CONSOLE_DATABASES, itOnSqliteAlone } from './console-databases.js';

const person = (username: string) => ({ username, password: `${username} has a long password` });
const WENDY = person('wendy');
const PAT = person('pat');
const QUINN = person('quinn');
const HOSTILE_PARTNER = '<img src=x onerror=alert(1)> Ltd';
// One Chromium for the file, both databases' runs; each test in a context of its own.
const browser = chromiumPerTest();

async function signInAs(page: Page, who: { username: string; password: string }) {
  await page.getByLabel('Username').fill(who.username);
  await page.getByRole('textbox', { name: 'Password' }).fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs out and opens the console afresh: the next person starts at their own first page, not the last one's. */
async function signOut(page: Page, site: ConsoleServer) {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  await page.goto(`${site.baseUrl}/`);
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
}

/** The links of the header's navigation, in order. */
async function navigation(page: Page): Promise<string[]> {
  return page.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents();
}

/**
 * Partners in the console (docs/partners.md, docs/console.md): a Workspace Administrator onboards
 * a Partner (root folder picked, a setting, a folder permission, a Partner Admin), the Partner
 * Admin adds a user, and that user signs in to see the Partner root's contents and nothing else
 * of the Workspace; deleting a Partner says its users go and its files stay, and does exactly that.
 */
describe.runIf(browserAvailable()).each(CONSOLE_DATABASES)('Partners in the console in Chromium [%s]', (database) => {
  const itOnSqlite = itOnSqliteAlone(database);
  let site: ConsoleServer;
  let orbit: number;
  let wendy: { id: number };
  let managers: { id: number };

  /** A file put into the Orbit Workspace through the API, as someone working there would. */
  async function putFile(filePath: string, body: string) {
    const response = await fetch(`${site.baseUrl}/api/rest/v1/files/${filePath.split('/').map(encodeURIComponent).join('/')}`, {
      method: 'PUT',
      headers: { 'X-ServiceAPI-Key': KEY_FOR_TESTS, 'X-Service-Workspace-Id': String(orbit) },
      body,
    });
    expect(response.status).toBe(201);
  }

  beforeAll(async () => {
    site = await startConsoleServer(database);
    orbit = (await site.admin('POST', '/workspaces', { name: 'Orbit' })).id;
    wendy = await site.admin('POST', '/users', { ...WENDY, workspace_id: orbit, workspace_admin: true });
    managers = await site.admin('POST', '/groups', { name: 'Account managers' }, orbit);
    // What the Partner will exchange, and what of the Workspace it must never see.
    await site.admin('POST', '/folders/Partners/Acme', { mkdir_parents: true }, orbit);
    await putFile('Partners/Acme/welcome.txt', 'hello Acme');
    await site.admin('POST', '/folders/Internal', { mkdir_parents: true }, orbit);
    await putFile('Internal/salaries.txt', 'not for partners');
    // A name that is markup, to be shown as text.
    await site.admin('POST', '/partners', { name: HOSTILE_PARTNER, root_folder: 'Partners/Hostile' }, orbit);
  }, 60_000);
  afterAll(async () => {
    await site?.stop();
  });

  it('a Workspace Administrator onboards a Partner, its Partner Admin adds a user, who sees only the Partner root', async () => {
    const page = await browser.context.newPage();
    const problems = pageProblems(page);
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => { dialogs.push(dialog.message()); void dialog.dismiss(); });

    // 1. The Workspace Administrator creates the Partner, its root folder picked in the folder list.
    await page.goto(`${site.baseUrl}/`);
    await signInAs(page, WENDY);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Partners' }).click();
    await page.getByRole('heading', { name: 'Partners' }).waitFor();
    const hostile = page.locator(`[data-partner="${HOSTILE_PARTNER.replace(/"/g, '\\"')}"]`);
    await hostile.getByRole('link', { name: HOSTILE_PARTNER }).waitFor();
    expect(await page.locator('img').count()).toBe(0);
    await expectAccessible(page, 'partners, the list');
    // On a phone the list fits: nothing scrolls sideways, the page or the table.
    await page.setViewportSize({ width: 390, height: 844 });
    await hostile.getByRole('link', { name: HOSTILE_PARTNER }).waitFor();
    expect(await sidewaysScrollers(page)).toEqual([]);
    await expectAccessible(page, 'partners, the list, 390 px');
    await page.setViewportSize(PAGE_OPTIONS.viewport);

    await page.getByRole('button', { name: 'New Partner' }).click();
    const create = page.getByRole('dialog', { name: 'New Partner' });
    await create.getByLabel('Name').fill('Acme');
    await create.getByRole('button', { name: 'Browse…' }).click();
    const folders = create.getByRole('group', { name: 'Folders for Root folder' });
    await folders.getByRole('button', { name: 'Open Partners' }).click();
    await folders.getByRole('button', { name: 'Open Acme' }).click();
    await folders.getByRole('button', { name: 'Choose Acme' }).click();
    expect(await create.getByRole('textbox', { name: 'Root folder' }).inputValue()).toBe('Partners/Acme');
    await create.getByLabel('Partner Admins may add and remove its users').check();
    await expectAccessible(page, 'partners, the new Partner dialog');
    await create.getByRole('button', { name: 'Create Partner' }).click();
    await page.getByRole('heading', { name: 'Acme', level: 1 }).waitFor();
    const [acme] = (await site.admin('GET', '/partners', undefined, orbit)).filter((p: { name: string }) => p.name === 'Acme');
    expect(acme).toMatchObject({ root_folder: 'Partners/Acme', workspace_id: orbit, allow_user_creation: true, allow_credential_changes: false, user_ids: [] });

    // 2. Its Partner Admin, added on the Partner's page.
    const addUser = page.getByRole('form', { name: 'Add a user to Acme' });
    await addUser.getByLabel('User name').fill(PAT.username);
    await addUser.getByRole('textbox', { name: 'Password' }).fill(PAT.password);
    await addUser.getByLabel('Partner Admin').check();
    await addUser.getByRole('button', { name: 'Add user' }).click();
    await page.locator('[data-partner-user="pat"]').getByText('Partner Admin').waitFor();
    const [pat] = await site.admin('GET', `/users?filter[partner_id]=${acme.id}`, undefined, orbit);
    expect(pat).toMatchObject({ username: PAT.username, partner_id: acme.id, partner_admin: true, partner_name: 'Acme', workspace_id: orbit });
    await expectAccessible(page, 'a Partner, its users and permissions');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('[data-partner-user="pat"]').waitFor();
    expect(await sidewaysScrollers(page)).toEqual([]);
    await page.setViewportSize(PAGE_OPTIONS.viewport);

    // 3. The Partner is given `full` on its root (the folder field starts at the root).
    const grant = page.getByRole('form', { name: 'Give Acme a folder permission' });
    expect(await grant.getByRole('textbox', { name: 'Folder' }).inputValue()).toBe('Partners/Acme');
    await grant.getByRole('button', { name: 'Review' }).click();
    // Reviewed (the server's dry run says what its users gain), or refused with the server's words:
    // a refusal fails here with what the server said.
    const preview = page.getByTestId('partner-grant-preview');
    await preview.or(page.getByRole('alert')).first().waitFor();
    expect(await page.getByRole('alert').allTextContents()).toEqual([]);
    await preview.getByTestId('access-difference').getByText(/^pat may now .* on “Partners\/Acme”/).first().waitFor();
    await expectAccessible(page, 'a Partner grant reviewed');
    await preview.getByRole('button', { name: 'Add permission' }).click();
    const added = page.locator('[data-partner-grant="Partners/Acme"]').getByRole('cell', { name: 'Full access', exact: true });
    await added.or(page.getByRole('alert')).first().waitFor();
    expect(await page.getByRole('alert').allTextContents()).toEqual([]);
    await added.waitFor();
    const grants = await site.admin('GET', `/permissions?filter[partner_id]=${acme.id}`, undefined, orbit);
    expect(grants).toMatchObject([{ path: 'Partners/Acme', partner_id: acme.id, partner_name: 'Acme', permission: 'full', recursive: true }]);
    await signOut(page, site);

    // 4. The Partner Admin sees their Partner's users and adds one.
    await signInAs(page, PAT);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Partner users' }).click();
    expect(await navigation(page)).toEqual(['Files', 'Trash', 'History', 'Partner users', 'My account']);
    const own = page.locator('[data-partner-user="pat"]');
    await own.or(page.getByRole('alert')).first().waitFor();
    expect(await page.getByRole('alert').allTextContents()).toEqual([]);
    await own.waitFor();
    const adminAdds = page.getByRole('form', { name: 'Add a user to Acme' });
    await adminAdds.getByLabel('User name').fill(QUINN.username);
    await adminAdds.getByRole('textbox', { name: 'Password' }).fill(QUINN.password);
    // A Partner Admin appoints no Partner Admins, and the Partner does not let them set passwords.
    expect(await adminAdds.getByLabel('Partner Admin').count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Set password/ }).count()).toBe(0);
    await adminAdds.getByRole('button', { name: 'Add user' }).click();
    const quinnRow = page.locator('[data-partner-user="quinn"]');
    await quinnRow.or(page.getByRole('alert')).first().waitFor();
    expect(await page.getByRole('alert').allTextContents()).toEqual([]);
    await quinnRow.waitFor();
    await expectAccessible(page, 'a Partner Admin\'s Partner users');
    const quinn = (await site.admin('GET', `/users?filter[partner_id]=${acme.id}`, undefined, orbit)).find((u: { username: string }) => u.username === QUINN.username);
    expect(quinn).toMatchObject({ partner_id: acme.id, partner_admin: false, workspace_id: orbit });
    await signOut(page, site);

    // 5. The new Partner user sees the Partner root as their whole site, and no administration.
    await signInAs(page, QUINN);
    const listing = page.getByRole('table');
    await listing.getByText('welcome.txt').waitFor();
    expect(await navigation(page)).toEqual(['Files', 'Trash', 'History', 'My account']);
    const names = await listing.locator('tbody tr').allTextContents();
    expect(names.join('\n')).not.toMatch(/Internal|Partners|salaries/);
    expect(names).toHaveLength(1);
    // The Workspace's other folders are not reachable by address either.
    await page.goto(`${site.baseUrl}/files/Internal`);
    await page.getByRole('alert').waitFor();
    expect(await page.getByText('salaries.txt').count()).toBe(0);

    expect(dialogs).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
    // Three people in turn, each signing in: longer than one person's flow.
  }, 90_000);

  itOnSqlite('a Partner Admin gets what its Partner allows: passwords but no users to add or remove, never on another Partner Admin; nothing at all without a setting', async () => {
    const beta = await site.admin('POST', '/partners', { name: 'Beta', root_folder: 'Partners/Beta', allow_credential_changes: true }, orbit);
    const bea = person('bea');
    await site.admin('POST', '/users', { ...bea, partner_id: beta.id, partner_admin: true }, orbit);
    await site.admin('POST', '/users', { ...person('bex'), partner_id: beta.id, partner_admin: true }, orbit);
    await site.admin('POST', '/users', { ...person('bo'), partner_id: beta.id }, orbit);
    const gamma = await site.admin('POST', '/partners', { name: 'Gamma', root_folder: 'Partners/Gamma' }, orbit);
    const gil = person('gil');
    await site.admin('POST', '/users', { ...gil, partner_id: gamma.id, partner_admin: true }, orbit);
    const page = await browser.context.newPage();
    const problems = pageProblems(page);
    await page.goto(`${site.baseUrl}/partner/users`);
    await signInAs(page, bea);
    // The Partner's settings read, or refused with the server's words.
    const heading = page.getByRole('heading', { name: 'Users of Beta' });
    await heading.or(page.getByRole('alert')).first().waitFor();
    expect(await page.getByRole('alert').allTextContents()).toEqual([]);
    await page.locator('[data-partner-user="bo"]').waitFor();
    await page.locator('[data-partner-user="bex"]').waitFor();
    await page.getByText('Your Partner does not let its Partner Admins add or remove users').waitFor();
    expect(await page.getByRole('form', { name: 'Add a user to Beta' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Delete/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Make Partner/ }).count()).toBe(0);
    // Passwords: of bo, not of the other Partner Admin, not of herself here.
    expect(await page.getByRole('button', { name: /^Set password/ }).allTextContents()).toEqual(['Set password']);
    await page.getByRole('button', { name: 'Set password of bo' }).click();
    const dialog = page.getByRole('dialog', { name: 'Set password' });
    await dialog.getByRole('textbox', { name: 'New password' }).fill('bo has a new long password');
    await dialog.getByRole('button', { name: 'Set password' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm it is you' });
    await confirm.getByRole('textbox', { name: 'Your password' }).fill(bea.password);
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await dialog.waitFor({ state: 'detached' });
    const signIn = await fetch(`${site.baseUrl}/api/rest/v1/sessions`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'bo', password: 'bo has a new long password' }),
    });
    expect(signIn.status).toBe(201);
    expect(await navigation(page)).toEqual(['Files', 'Trash', 'History', 'Partner users', 'My account']);
    await signOut(page, site);

    // A Partner that lets its Partner Admins do nothing: the page says so, and lists nobody.
    await page.goto(`${site.baseUrl}/partner/users`);
    await signInAs(page, gil);
    await page.getByText('Gamma does not let its Partner Admins manage its users.').waitFor();
    expect(await page.locator('[data-partner-user]').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  itOnSqlite('a Partner is edited, a grant of it removed, and deleting it says that its users go and its files stay, and does so', async () => {
    const old = await site.admin('POST', '/partners', { name: 'Old Co', root_folder: 'Partners/Old' }, orbit);
    const olga = await site.admin('POST', '/users', { ...person('olga'), partner_id: old.id }, orbit);
    await putFile('Partners/Old/kept.txt', 'kept');
    await site.admin('POST', '/permissions', { path: 'Partners/Old', partner_id: old.id, permission: 'readonly' }, orbit);
    const page = await browser.context.newPage();
    const problems = pageProblems(page);
    await page.goto(`${site.baseUrl}/admin/partners/${old.id}`);
    await signInAs(page, WENDY);
    await page.getByRole('heading', { name: 'Old Co', level: 1 }).waitFor();
    await page.locator('[data-partner-user="olga"]').waitFor();

    // Edit: a setting in plain words, tags and notes.
    await page.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Old Co' });
    await edit.getByLabel('Partner Admins may set its users\' passwords').check();
    await edit.getByLabel('Tags').fill('legacy,eu');
    await edit.getByLabel('Notes').fill('<b>renewal due</b> in March');
    await edit.getByRole('textbox', { name: 'Responsible user' }).fill(WENDY.username);
    await edit.getByRole('combobox', { name: 'Responsible group' }).click();
    await page.getByRole('option', { name: 'Account managers' }).click();
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'detached' });
    await page.getByText('<b>renewal due</b> in March').waitFor();
    await page.getByRole('row', { name: 'Responsible group Account managers' }).waitFor();
    await page.getByRole('row', { name: `Responsible user ${WENDY.username}` }).waitFor();
    expect(await site.admin('GET', `/partners/${old.id}`, undefined, orbit)).toMatchObject({
      allow_credential_changes: true, allow_user_creation: false, tags: 'legacy,eu', notes: '<b>renewal due</b> in March',
      responsible_user_id: wendy.id, responsible_group_id: managers.id,
    });

    // A grant removed after its effect is shown.
    const grantRow = page.locator('[data-partner-grant="Partners/Old"]');
    await grantRow.waitFor();
    await grantRow.getByRole('button', { name: 'Remove View and download on Partners/Old' }).click();
    const removal = page.getByTestId('partner-grant-removal-preview');
    await removal.getByTestId('access-difference').getByText(/^olga may no longer /).first().waitFor();
    await removal.getByRole('button', { name: 'Remove permission' }).click();
    await grantRow.waitFor({ state: 'detached' });
    expect(await site.admin('GET', `/permissions?filter[partner_id]=${old.id}`, undefined, orbit)).toEqual([]);

    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Partner' });
    await confirm.getByText('user is deleted with it').waitFor();
    await confirm.getByText('and the files in it stay').waitFor();
    await expectAccessible(page, 'a Partner\'s delete confirmation');
    await confirm.getByRole('button', { name: 'Delete Partner' }).click();
    await page.getByRole('heading', { name: 'Partners', level: 1 }).waitFor();
    expect(await page.locator('[data-partner="Old Co"]').count()).toBe(0);

    expect((await site.admin('GET', '/partners', undefined, orbit)).map((p: { name: string }) => p.name)).not.toContain('Old Co');
    await expect(site.admin('GET', `/users/${olga.id}`, undefined, orbit)).rejects.toThrow(/404/);
    expect((await site.admin('GET', '/folders/Partners/Old', undefined, orbit)).map((e: { path: string }) => e.path)).toEqual(['Partners/Old/kept.txt']);
    expect(problems).toEqual([]);
    await page.close();
  });
});
