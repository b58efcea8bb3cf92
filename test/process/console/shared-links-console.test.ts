import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, chromiumPerTest, expectAccessible, pageProblems, sidewaysScrollers } from '../../support/browser.js';
import { startConsoleServer, type ConsoleServer } from './console-server.js';
import { openFileMenu, signInAs } from './console-steps.js';
import { CONSOLE_DATABASES, itOnSqliteAlone } from './console-databases.js';

const SAM = { username: 'sam', password: 'sam has a long password' };
const RITA = { username: 'rita', password: 'rita has a long password' };
const HOSTILE_DESCRIPTION = '<img src=x onerror=alert(1)> for the auditors';
// One Chromium for the file, both databases' runs; each test in a context of its own.
const browser = chromiumPerTest();

/** The card of link `id` on the Shared links page. */
const cardOf = (page: Page, id: number) => page.locator(`[data-bundle="${id}"]`);

interface BundleBody { id: number; url: string; permissions: string; password_protected: boolean; expires_at: string | null; paths?: string[]; description: string | null;
  dont_allow_folders_in_uploads: boolean; dont_separate_submissions_by_folder: boolean }

/**
 * Share links in the console (docs/sharing.md, docs/console.md): a user with Share on a folder
 * makes a link with a password from the folder's menu, copies its URL, finds it on Shared links,
 * changes its expiry and deletes it after confirming; a folder's Request files makes an upload-only
 * link; a refusal is shown at the field it names; a user without Share is not offered it.
 */
describe.runIf(browserAvailable()).each(CONSOLE_DATABASES)('Share links in the console in Chromium [%s]', (database) => {
  const itOnSqlite = itOnSqliteAlone(database);
  let site: ConsoleServer;
  let orbit: number;

  beforeAll(async () => {
    site = await startConsoleServer(database);
    orbit = (await site.admin('POST', '/workspaces', { name: 'Orbit' })).id;
    const sam = await site.admin('POST', '/users', { ...SAM, workspace_id: orbit });
    const rita = await site.admin('POST', '/users', { ...RITA, workspace_id: orbit });
    await site.admin('POST', '/folders/reports', { mkdir_parents: true }, orbit);
    // Share on reports, and write there, which an upload link needs too.
    await site.admin('POST', '/permissions', { path: 'reports', user_id: sam.id, permission: 'full' }, orbit);
    await site.admin('POST', '/permissions', { path: 'reports', user_id: sam.id, permission: 'bundle' }, orbit);
    await site.admin('POST', '/permissions', { path: 'reports', user_id: rita.id, permission: 'full' }, orbit);
  }, 60_000);
  afterAll(async () => {
    await site?.stop();
  });

  const linksOf = async (): Promise<BundleBody[]> => site.admin('GET', '/bundles', undefined, orbit);

  it('a user shares a folder with a password from its menu, copies the URL, finds the link on Shared links, changes its expiry and deletes it', async () => {
    const page = await browser.context.newPage();
    const problems = pageProblems(page);
    await page.goto(`${site.baseUrl}/files`);
    await signInAs(page, SAM);
    await page.getByRole('table').getByRole('link', { name: 'reports' }).waitFor();

    const menu = await openFileMenu(page, 'reports');
    await menu.getByRole('menuitem', { name: 'Share', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Share reports' });
    // A folder's link may take uploads: every permission is offered, in words.
    for (const words of ['View and download', 'View only (preview)', 'Upload only (file request)', 'View, download and upload', 'Full: also replace and delete']) {
      await dialog.getByRole('radio', { name: words }).waitFor();
    }
    await expectAccessible(page, 'the share dialog');
    await dialog.getByRole('textbox', { name: 'Description' }).fill(HOSTILE_DESCRIPTION);
    await dialog.getByLabel('Password', { exact: true }).fill('a password for the auditors');
    // A start after the end: the API refuses it, named at the field.
    await dialog.getByLabel('Expires').fill('2031-01-01T00:00');
    await dialog.getByLabel('Starts working').fill('2031-02-01T00:00');
    await dialog.getByRole('button', { name: 'Create link' }).click();
    await dialog.getByText('must be before expires_at', { exact: true }).waitFor();
    await dialog.getByRole('alert').first().waitFor();
    expect(await linksOf()).toEqual([]);
    await dialog.getByLabel('Starts working').fill('');
    await dialog.getByRole('button', { name: 'Create link' }).click();

    const made = page.getByRole('dialog', { name: 'Link to reports' });
    const url = await made.getByTestId('share-url').textContent();
    expect(url).toMatch(/\/f\/[A-Za-z0-9_-]{22}$/);
    await made.getByRole('button', { name: 'Copy link' }).waitFor();
    await made.getByRole('img', { name: 'QR code of the link' }).waitFor();
    await made.getByText('Atrium sends no email yet: copy the link and send it yourself.').waitFor();
    await expectAccessible(page, 'the share dialog, the link made');
    const [link] = await linksOf();
    expect(link).toMatchObject({ url, permissions: 'read', password_protected: true, description: HOSTILE_DESCRIPTION, expires_at: expect.any(String) });
    // Whom it is for: recorded, and nothing sent.
    await made.getByRole('textbox', { name: 'Email addresses' }).fill('auditor@example.com, second@example.com');
    await made.getByRole('button', { name: 'Record recipients' }).click();
    await made.getByRole('status').getByText('Nothing was sent to them').waitFor();
    const recipients = await site.admin('GET', `/bundle_recipients?bundle_id=${link!.id}`, undefined, orbit);
    expect(recipients.map((r: { recipient: string }) => r.recipient).sort()).toEqual(['auditor@example.com', 'second@example.com']);
    await made.getByRole('button', { name: 'Done' }).click();
    await made.waitFor({ state: 'detached' });

    // On Shared links: what it shares and how, the markup of its description as text.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Shared links' }).click();
    await page.getByRole('heading', { name: 'Shared links', level: 1 }).waitFor();
    const card = cardOf(page, link!.id);
    await card.getByRole('link', { name: 'reports' }).waitFor();
    await card.getByText('View and download').waitFor();
    await card.getByText(HOSTILE_DESCRIPTION).waitFor();
    expect(await page.locator('img').count()).toBe(0);
    await card.getByRole('button', { name: 'Copy link' }).waitFor();
    await expectAccessible(page, 'shared links, the list');

    // A new expiry.
    await card.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit share link' });
    await edit.getByLabel('Expires').fill('2031-06-30T17:00');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'detached' });
    // The time typed is the browser's local time.
    const wanted = await page.evaluate(() => new Date('2031-06-30T17:00').getTime());
    await expect.poll(async () => Date.parse((await linksOf())[0]?.expires_at ?? '')).toBe(wanted);
    expect((await linksOf())[0]).toMatchObject({ password_protected: true });

    // Its page: recipients as recorded.
    await card.getByRole('link', { name: 'reports' }).click();
    await page.getByRole('heading', { name: 'reports', level: 1 }).waitFor();
    await page.getByRole('table', { name: 'Recipients' }).getByText('auditor@example.com').waitFor();
    await page.getByText('Nobody registered yet.').waitFor();
    await expectAccessible(page, 'a shared link, its page');
    await page.getByRole('link', { name: '← All shared links' }).click();

    // Deleted after confirming.
    await card.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete share link' });
    await confirm.getByText('It stops working at once').waitFor();
    await confirm.getByRole('button', { name: 'Delete link' }).click();
    await card.waitFor({ state: 'detached' });
    await page.getByText('No shared links yet.').waitFor();
    expect(await linksOf()).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  itOnSqlite("a folder's Request files makes an upload-only link; a user without Share is not offered it; Shared links fits a phone", async () => {
    const page = await browser.context.newPage();
    const problems = pageProblems(page);
    await page.goto(`${site.baseUrl}/files`);
    await signInAs(page, SAM);
    await page.getByRole('table').getByRole('link', { name: 'reports' }).waitFor();
    const menu = await openFileMenu(page, 'reports');
    await menu.getByRole('menuitem', { name: 'Request files' }).click();
    const dialog = page.getByRole('dialog', { name: 'Request files into reports' });
    await dialog.getByText('They see nothing that is already there.').waitFor();
    expect(await dialog.getByRole('radio').count()).toBe(0);
    await dialog.getByRole('checkbox', { name: "A folder for each visitor's uploads" }).waitFor();
    await dialog.getByRole('checkbox', { name: 'Visitors may upload folders' }).uncheck();
    await expectAccessible(page, 'the request files dialog');
    await dialog.getByRole('button', { name: 'Create request link' }).click();
    const url = await page.getByRole('dialog', { name: 'Link to reports' }).getByTestId('share-url').textContent();
    const link = (await linksOf()).find((l) => l.url === url);
    expect(link).toMatchObject({ permissions: 'write', dont_allow_folders_in_uploads: true, dont_separate_submissions_by_folder: false, password_protected: false });
    await page.getByRole('button', { name: 'Done' }).click();

    // A phone's width: the list, a link's page and the dialog fit it.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${site.baseUrl}/shared-links`);
    await cardOf(page, link!.id).getByText('Upload only (file request)').waitFor();
    expect(await sidewaysScrollers(page)).toEqual([]);
    await cardOf(page, link!.id).getByRole('link', { name: 'reports' }).click();
    await page.getByRole('heading', { name: 'reports', level: 1 }).waitFor();
    expect(await sidewaysScrollers(page)).toEqual([]);
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('dialog', { name: 'Edit share link' }).getByLabel('Expires').waitFor();
    expect(await sidewaysScrollers(page)).toEqual([]);
    await site.admin('DELETE', `/bundles/${link!.id}`, undefined, orbit);
    await page.keyboard.press('Escape');

    // Rita may write but not share: her menu offers neither.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signInAs(page, RITA);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Files' }).click();
    await page.getByRole('table').getByRole('link', { name: 'reports' }).waitFor();
    const ritasMenu = await openFileMenu(page, 'reports');
    expect(await ritasMenu.getAttribute('data-shares')).toBe('false');
    expect(await ritasMenu.getByRole('menuitem', { name: 'Share', exact: true }).count()).toBe(0);
    expect(await ritasMenu.getByRole('menuitem', { name: 'Request files' }).count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});
