import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, chooseFiles, chromiumPerTest, expectAccessible, pageProblems, sidewaysScrollers } from '../../support/browser.js';
import { ADMIN, startConsoleServer, type ConsoleServer } from './console-server.js';
import { openFileMenu, signInAs } from './console-steps.js';

const ALICE = { username: 'alice', password: 'correct horse battery' };
const ADA = { username: 'ada', password: 'acme print has a long password' };
const BRIEF = 'Spring launch: 12 March\n';

/**
 * The getting-started guide's first day (docs/getting-started.md, "The first day with curl"), done
 * in the console on a phone, 390 px wide, as a new administrator and then Alice would: a
 * Workspace for marketing, Alice and her group, folders and the group's grant, an upload and a
 * download, why Alice may reach the brief, her API key and a request with it, a Partner with its
 * grant and first user, and a share link with a password. Each step through the navigation
 * drawer and the row menus a phone has; after each screen, nothing scrolls sideways. The person
 * has asked their phone for less motion, and nothing slides. What the console did is read back
 * through the API.
 */
describe.runIf(browserAvailable())('the getting-started first day on a phone, in Chromium [sqlite]', () => {
  let site: ConsoleServer;
  const browser = chromiumPerTest();
  beforeAll(async () => {
    site = await startConsoleServer('sqlite');
  }, 60_000);
  afterAll(async () => {
    await site?.stop();
  });

  /** Opens a place of the navigation through the drawer a phone has (Files shows its folder path, the others their name). */
  async function goTo(page: Page, place: string): Promise<void> {
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: place, exact: true }).click();
    if (place === 'Files') await page.getByRole('navigation', { name: 'Folder path' }).waitFor();
    else await page.getByRole('heading', { name: place, level: 1 }).waitFor();
    await expect.poll(() => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: place, exact: true }).isVisible()).toBe(false);
  }

  async function fits(page: Page, what: string): Promise<void> {
    expect(await sidewaysScrollers(page), `${what} at 390 px`).toEqual([]);
  }

  it('an administrator sets up Marketing, Alice works in it and shares the brief, all at 390 px', async () => {
    browser.context.setDefaultTimeout(15_000);
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    const problems = pageProblems(page);
    await page.goto(`${site.baseUrl}/`);
    await signInAs(page, ADMIN);
    await page.getByRole('button', { name: 'Open navigation' }).waitFor();
    // This person asked their phone for less motion: the drawer opens without sliding in.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    // The home page's spinners first run their course: a spinner says something is loading (it
    // keeps turning under reduced motion, as spinners do), and is not the drawer's motion.
    await expect.poll(() => page.locator('.mantine-Loader-root').count()).toBe(0);
    await page.getByRole('button', { name: 'Open navigation' }).click();
    expect(await page.evaluate(() => (globalThis as any).document.getAnimations().map((a: any) => `${a.transitionProperty ?? a.animationName} on ${String(a.effect?.target?.className).slice(0, 60)}`) as string[])).toEqual([]);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Workspaces', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Close navigation' }).click();

    // A Workspace for the marketing team, chosen in the header.
    await goTo(page, 'Workspaces');
    await page.getByRole('button', { name: 'New Workspace' }).click();
    await page.getByRole('dialog', { name: 'New Workspace' }).getByLabel('Name').fill('Marketing');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.locator('[data-workspace="Marketing"]').waitFor();
    await fits(page, 'Workspaces');
    const [marketing] = (await site.admin('GET', '/workspaces')).filter((w: { name: string }) => w.name === 'Marketing');
    const switcher = page.getByRole('combobox', { name: 'Workspace' });
    await switcher.click();
    await page.getByRole('option', { name: 'Marketing' }).click();
    await expect.poll(() => switcher.inputValue()).toBe('Marketing');

    // Alice, the group Designers, and Alice in it.
    await goTo(page, 'Users');
    await page.getByRole('button', { name: 'New user' }).click();
    const newUser = page.getByRole('dialog', { name: 'New user' });
    await newUser.getByLabel('User name').fill(ALICE.username);
    await newUser.getByRole('textbox', { name: 'Password' }).fill(ALICE.password);
    await newUser.getByRole('button', { name: 'Create user' }).click();
    await page.locator('[data-user="alice"]').waitFor();
    await fits(page, 'Users');
    await goTo(page, 'Groups');
    await page.getByRole('button', { name: 'New group' }).click();
    await page.getByRole('dialog', { name: 'New group' }).getByLabel('Name').fill('Designers');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.locator('[data-group="Designers"]').waitFor();
    // On a phone a row's actions are one ⋯ menu.
    await page.getByRole('button', { name: 'Actions for Designers' }).click();
    await page.getByRole('menu', { name: 'Actions for Designers' }).getByRole('menuitem', { name: 'Members' }).click();
    await page.getByRole('combobox', { name: 'User name' }).fill(ALICE.username);
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.getByTestId('membership-preview').getByRole('button', { name: /^Add / }).click();
    await page.locator('[data-member="alice"]').waitFor();
    await fits(page, 'a group\'s members');
    const [alice] = await site.admin('GET', '/users?filter[username]=alice', undefined, marketing.id);
    expect(alice).toMatchObject({ username: 'alice', workspace_id: marketing.id, group_ids: expect.stringMatching(/^\d+$/) });

    // Folders, and the group's grant on campaigns, reviewed before it is given.
    await goTo(page, 'Files');
    const newFolder = async (name: string) => {
      await page.getByRole('button', { name: 'New folder' }).click();
      await page.getByRole('dialog', { name: 'New folder' }).getByLabel('Folder name').fill(name);
      await page.getByRole('dialog', { name: 'New folder' }).getByRole('button', { name: 'Create' }).click();
      await page.locator(`[data-entry="${name}"]`).waitFor();
    };
    await newFolder('campaigns');
    await (await openFileMenu(page, 'campaigns')).getByRole('menuitem', { name: 'Permissions' }).click();
    const permissions = page.getByRole('dialog', { name: 'Folder permissions' });
    await permissions.getByText('A group', { exact: true }).click();
    await permissions.getByLabel('Group name').fill('Designers');
    await permissions.getByRole('combobox', { name: 'Level' }).click();
    await page.getByRole('option', { name: /^Full access/ }).click();
    await permissions.getByRole('button', { name: 'Review' }).click();
    await permissions.getByTestId('access-difference').getByText(/^alice may now /).first().waitFor();
    await fits(page, 'the permissions dialog, reviewed');
    await permissions.getByRole('button', { name: 'Add permission' }).click();
    await permissions.locator('[data-grant="group Designers"]').getByText('Full access').waitFor();
    await permissions.getByRole('button', { name: 'Close' }).click();
    await page.locator('[data-entry="campaigns"]').getByRole('link', { name: 'campaigns' }).click();
    await newFolder('2026');
    await page.locator('[data-entry="2026"]').getByRole('link', { name: '2026' }).click();
    await page.getByRole('navigation', { name: 'Folder path' }).getByText('2026').waitFor();

    // An upload, and a download of the same bytes.
    await chooseFiles(page, 'Upload files', [{ name: 'brief.txt', mimeType: 'text/plain', buffer: Buffer.from(BRIEF) }]);
    await page.locator('[data-entry="brief.txt"]').waitFor();
    await fits(page, 'a folder with an upload');
    const downloading = page.waitForEvent('download');
    await (await openFileMenu(page, 'brief.txt')).getByRole('menuitem', { name: 'Download' }).click();
    const download = await downloading;
    const chunks: Buffer[] = [];
    for await (const chunk of (await download.createReadStream())) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe(BRIEF);

    // Why Alice may reach the brief: the group's grant.
    await (await openFileMenu(page, 'brief.txt')).getByRole('menuitem', { name: 'Why can this be reached?' }).click();
    await page.getByLabel('For the user').fill(ALICE.username);
    await page.getByRole('button', { name: 'Explain' }).click();
    await page.getByTestId('explanation').getByText(/Full access on “campaigns”, given to the group Designers/).first().waitFor();
    await fits(page, 'why can this be reached');
    await expectAccessible(page, 'why can this be reached, for a user, 390 px');
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

    // A Partner with its root folder, its grant and its first user, a Partner Admin.
    await goTo(page, 'Partners');
    await page.getByRole('button', { name: 'New Partner' }).click();
    const newPartner = page.getByRole('dialog', { name: 'New Partner' });
    await newPartner.getByLabel('Name').fill('Acme Print');
    await newPartner.getByRole('textbox', { name: 'Root folder' }).fill('partners/acme');
    await newPartner.getByLabel('Partner Admins may add and remove its users').check();
    await fits(page, 'the new Partner dialog');
    await newPartner.getByRole('button', { name: 'Create Partner' }).click();
    await page.getByRole('heading', { name: 'Acme Print', level: 1 }).waitFor();
    const grant = page.getByRole('form', { name: 'Give Acme Print a folder permission' });
    await grant.getByRole('button', { name: 'Review' }).click();
    await page.getByTestId('partner-grant-preview').getByRole('button', { name: 'Add permission' }).click();
    await page.locator('[data-partner-grant="partners/acme"]').getByText(/^Full access/).waitFor();
    const addUser = page.getByRole('form', { name: 'Add a user to Acme Print' });
    await addUser.getByLabel('User name').fill(ADA.username);
    await addUser.getByRole('textbox', { name: 'Password' }).fill(ADA.password);
    await addUser.getByLabel('Partner Admin').check();
    await addUser.getByRole('button', { name: 'Add user' }).click();
    await page.locator('[data-partner-user="ada"]').getByText('Partner Admin').waitFor();
    await fits(page, 'a Partner');
    const [acme] = await site.admin('GET', '/partners', undefined, marketing.id);
    expect(acme).toMatchObject({ name: 'Acme Print', root_folder: 'partners/acme', allow_user_creation: true });
    expect(await site.admin('GET', `/permissions?filter[partner_id]=${acme.id}`, undefined, marketing.id)).toMatchObject([{ path: 'partners/acme', permission: 'full' }]);

    // Sharing is a permission of its own: the administrator gives Designers Share on campaigns.
    await goTo(page, 'Files');
    await (await openFileMenu(page, 'campaigns')).getByRole('menuitem', { name: 'Permissions' }).click();
    await permissions.getByText('A group', { exact: true }).click();
    await permissions.getByLabel('Group name').fill('Designers');
    await permissions.getByRole('combobox', { name: 'Level' }).click();
    await page.getByRole('option', { name: /^Share/ }).click();
    await permissions.getByRole('button', { name: 'Review' }).click();
    await permissions.getByRole('button', { name: 'Add permission' }).click();
    await permissions.locator('[data-grant="group Designers"]').getByText('Share').waitFor();
    await permissions.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();

    // Alice: her key, a request with it, and a share link to 2026 with a password.
    await signInAs(page, ALICE);
    await page.locator('[data-entry="campaigns"]').waitFor();
    await goTo(page, 'My account');
    await page.getByLabel('Key name').fill('alice laptop');
    await page.getByRole('button', { name: 'Create key' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm it is you' });
    await confirm.getByRole('textbox', { name: 'Your password' }).fill(ALICE.password);
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    const secret = (await page.getByTestId('new-key-secret').textContent()) ?? '';
    expect(secret).toMatch(/^atr_/);
    await fits(page, 'a new key shown once');
    await page.getByRole('button', { name: 'Done' }).click();
    const asAlice = await fetch(`${site.baseUrl}/api/rest/v1/folders/campaigns/2026`, { headers: { 'X-ServiceAPI-Key': secret } });
    expect(await asAlice.json()).toMatchObject([{ path: 'campaigns/2026/brief.txt', permissions: 'lrwd' }]);

    await goTo(page, 'Files');
    await page.locator('[data-entry="campaigns"]').getByRole('link', { name: 'campaigns' }).click();
    await (await openFileMenu(page, '2026')).getByRole('menuitem', { name: 'Share', exact: true }).click();
    const share = page.getByRole('dialog', { name: 'Share 2026' });
    await share.getByLabel('Password', { exact: true }).fill('spring in paris');
    await fits(page, 'the share dialog');
    await share.getByRole('button', { name: 'Create link' }).click();
    const made = page.getByRole('dialog', { name: 'Link to 2026' });
    await made.getByRole('button', { name: 'Copy link' }).waitFor();
    await fits(page, 'a new share link');
    await expectAccessible(page, 'a new share link, 390 px');
    await made.getByRole('button', { name: 'Done' }).click();
    const [link] = await site.admin('GET', '/bundles', undefined, marketing.id);
    expect(link).toMatchObject({ password_protected: true, user_id: alice.id });
    // The link opens with its password and holds the brief, as the guide's visitor finds it.
    const publicLink = `${site.baseUrl}/api/public/bundles/${String(link.code)}`;
    const visit = await fetch(`${publicLink}/visits`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ password: 'spring in paris' }) });
    expect(visit.status).toBe(201);
    const cookie = (visit.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const listed = await fetch(`${publicLink}/entries?path=2026`, { headers: { cookie } });
    expect(await listed.json()).toMatchObject({ entries: [{ path: '2026/brief.txt', size: BRIEF.length }] });

    expect(problems).toEqual([]);
    await page.close();
  }, 180_000);
});
