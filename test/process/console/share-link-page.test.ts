import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { browserAvailable, chooseFiles, chromiumPerTest, expectAccessible, pageProblems, sidewaysScrollers } from '../../support/browser.js';
import { ADMIN, KEY_FOR_TESTS, startConsoleServer, type ConsoleServer } from './console-server.js';
import { openFileMenu, signInAs } from './console-steps.js';
import { CONSOLE_DATABASES, itOnSqliteAlone } from './console-databases.js';

// One Chromium for the file, both databases' runs; each test in a context of its own, as a visitor's new browser.
const browser = chromiumPerTest();

/** A PNG of one pixel: an image the page previews. */
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
/** What the read link shares, below its one folder `Reports`. */
const SHARED: Record<string, Buffer> = {
  'Reports/summary.txt': Buffer.from('the totals, <b>not bold</b>\n'),
  'Reports/pixel.png': PIXEL,
  'Reports/Q1/january.csv': Buffer.from('month,total\njanuary,12\n'),
};
const PASSWORD = 'a password to give them';

/** The file entries of a ZIP (not its folders), each with its bytes. */
function zipFiles(zip: Buffer): Promise<Record<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, archive) => {
      if (error !== null) return reject(error);
      const files: Record<string, Buffer> = {};
      archive.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith('/')) return archive.readEntry();
        archive.openReadStream(entry, (streamError, stream) => {
          if (streamError !== null) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            files[entry.fileName] = Buffer.concat(chunks);
            archive.readEntry();
          });
          stream.on('error', reject);
        });
      });
      archive.on('end', () => resolve(files));
      archive.on('error', reject);
      archive.readEntry();
    });
  });
}

/** The page's requests to the server's API, as `METHOD /path`. */
function apiRequestsOf(page: Page, baseUrl: string): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (url.startsWith(`${baseUrl}/api/`)) seen.push(`${request.method()} ${url.slice(baseUrl.length)}`);
  });
  return seen;
}

/**
 * The page a share link's URL opens (`/f/<code>`, docs/sharing.md "The page"), as a visitor with
 * no account sees it in a fresh browser: the password, the files with a preview and the ZIP, an
 * upload-only link at a phone's width, and a link that does not exist. The links are made through
 * the REST API as their creator would.
 */
describe.runIf(browserAvailable()).each(CONSOLE_DATABASES)('the share link page in Chromium [%s]', (database) => {
  const itOnSqlite = itOnSqliteAlone(database);
  let site: ConsoleServer;
  let adminId: number;

  beforeAll(async () => {
    site = await startConsoleServer(database);
    const users = (await site.admin('GET', '/users')) as { id: number; username: string }[];
    adminId = (users.find((user) => user.username === ADMIN.username) as { id: number }).id;
    for (const folder of ['Reports/Q1', 'Inbox']) await site.admin('POST', `/folders/${folder}`, { mkdir_parents: true });
    for (const [path, bytes] of Object.entries(SHARED)) await putFile(path, bytes);
  }, 60_000);
  afterAll(async () => {
    await site?.stop();
  });

  async function putFile(path: string, bytes: Buffer): Promise<void> {
    const response = await fetch(`${site.baseUrl}/api/rest/v1/files/${path.split('/').map(encodeURIComponent).join('/')}`, {
      method: 'PUT',
      headers: { 'X-ServiceAPI-Key': KEY_FOR_TESTS, 'Content-Type': 'application/octet-stream' },
      body: bytes,
    });
    expect(response.status).toBe(201);
  }
  /** A link made by the first administrator (a site-wide key names the link's creator). */
  const createLink = (body: Record<string, unknown>) => site.admin('POST', '/bundles', { user_id: adminId, ...body }) as Promise<{ code: string; url: string }>;

  it('a user shares a folder with a password in the console; a visitor in a fresh browser gives the password, previews an image and a text, and downloads a ZIP holding the same files, byte for byte', async () => {
    // The link is made as its creator makes it: in the console, from the folder's menu.
    const creator = await browser.context.newPage();
    await creator.goto(`${site.baseUrl}/files`);
    await signInAs(creator, ADMIN);
    await creator.getByRole('table').getByRole('link', { name: 'Reports' }).waitFor();
    await (await openFileMenu(creator, 'Reports')).getByRole('menuitem', { name: 'Share', exact: true }).click();
    const share = creator.getByRole('dialog', { name: 'Share Reports' });
    await share.getByRole('radio', { name: 'View and download' }).check();
    await share.getByRole('textbox', { name: 'Description' }).fill('For the auditors <b>2026</b>');
    await share.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await share.getByRole('button', { name: 'Create link' }).click();
    const url = (await creator.getByRole('dialog', { name: 'Link to Reports' }).getByTestId('share-url').textContent()) ?? '';
    const link = { url, code: url.slice(url.lastIndexOf('/') + 1) };
    expect(link.url).toBe(`${site.baseUrl}/f/${link.code}`);
    // The visitor: another browser, which never signed in.
    const visitor = await browser.context.browser()!.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 800 } });
    const page = await visitor.newPage();
    const problems = pageProblems(page);
    const requests = apiRequestsOf(page, site.baseUrl);
    await page.goto(`${site.baseUrl}/f/${link.code}`);

    // The password first, with the link's description as text; none of the console around it.
    const form = page.getByRole('form', { name: 'Open the link' });
    const password = form.getByRole('textbox', { name: 'Password' });
    await password.waitFor();
    await page.getByText('For the auditors <b>2026</b>', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Sign in' }).count()).toBe(0);
    expect(await page.getByRole('navigation', { name: /main/i }).count()).toBe(0);
    await expectAccessible(page, 'link page: password');

    // A wrong one is refused at its field, with the server's sentence.
    await password.fill('not the password');
    await form.getByRole('button', { name: 'Open' }).click();
    await expect.poll(() => password.getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page, 'link page: wrong password');
    await password.fill(PASSWORD);
    await form.getByRole('button', { name: 'Open' }).click();

    // The link's top: its one shared folder; inside it, the files with their sizes in binary units.
    const top = page.locator('[data-entry="Reports"]');
    await top.waitFor();
    await expectAccessible(page, 'link page: top');
    await top.getByRole('button', { name: 'Reports/' }).click();
    await page.locator('[data-entry="summary.txt"]').getByText(`${SHARED['Reports/summary.txt']?.length} B`, { exact: false }).waitFor();
    await page.locator('[data-entry="Q1"]').waitFor();
    expect(new URL(page.url()).search).toBe('?path=Reports');
    await expectAccessible(page, 'link page: folder');

    // The image, drawn from its inline address.
    await page.getByRole('button', { name: 'Preview pixel.png' }).click();
    const dialog = page.getByRole('dialog', { name: 'pixel.png' });
    const image = dialog.getByRole('img', { name: 'pixel.png' });
    await image.waitFor();
    await expect.poll(() => image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(1);
    await expectAccessible(page, 'link page: image preview');
    await dialog.getByRole('button', { name: 'Close' }).click();

    // The text, as text: its markup is not drawn.
    await page.getByRole('button', { name: 'Preview summary.txt' }).click();
    await expect.poll(() => page.getByTestId('text-lines').textContent()).toBe(SHARED['Reports/summary.txt']?.toString());
    await page.keyboard.press('Escape');

    // Back at the top by the breadcrumbs, everything as one ZIP, compared byte for byte.
    await page.getByRole('navigation', { name: 'Folder path' }).getByRole('button', { name: 'All shared files' }).click();
    await top.waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download all as ZIP' }).click()]);
    const zipped = await zipFiles(fs.readFileSync(await download.path()));
    expect(Object.keys(zipped).sort()).toEqual(Object.keys(SHARED).sort());
    for (const [path, bytes] of Object.entries(SHARED)) expect(zipped[path]?.equals(bytes), path).toBe(true);

    // The visit is an HttpOnly cookie for this link alone; nothing is kept where a script reads it,
    // and only the public link API was asked.
    const cookies = await visitor.cookies(site.baseUrl + `/api/public/bundles/${link.code}`);
    const visit = cookies.find((cookie) => cookie.name === 'atrium_link');
    expect(visit?.httpOnly).toBe(true);
    expect(visit?.sameSite).toBe('Strict');
    expect(visit?.path).toBe(`/api/public/bundles/${link.code}`);
    expect(await page.evaluate(() => {
      const inBrowser = globalThis as unknown as { document: { cookie: string }; localStorage: { length: number }; sessionStorage: { length: number } };
      return [inBrowser.localStorage.length, inBrowser.sessionStorage.length, inBrowser.document.cookie];
    })).toEqual([0, 0, '']);
    expect(requests.filter((request) => !request.includes(` /api/public/bundles/${link.code}`))).toEqual([]);
    expect(requests.some((request) => request.includes(PASSWORD) || request.includes(encodeURIComponent(PASSWORD)))).toBe(false);
    expect(problems).toEqual([]);
    await visitor.close();
    await creator.close();
  });

  itOnSqlite('a visitor uploads through an upload-only link on a phone\'s width, each file with its bar, a taken name stored as " (1)"', async () => {
    const link = await createLink({ paths: ['Inbox'], permissions: 'write', dont_separate_submissions_by_folder: true });
    await putFile('Inbox/hello.txt', Buffer.from('was there first\n'));
    const page = await browser.context.newPage();
    const problems = pageProblems(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${site.baseUrl}/f/${link.code}`);

    // Only the drop zone, and the sentence that says what the visitor will not see.
    await page.getByText('You will not see files other people sent', { exact: false }).waitFor();
    expect(await page.getByRole('list', { name: 'Files and folders' }).count()).toBe(0);
    expect(await page.getByText('Inbox', { exact: false }).count()).toBe(0);
    await expectAccessible(page, 'link page: upload only, narrow');

    await chooseFiles(page, 'Choose files', [
      { name: 'hello.txt', mimeType: 'text/plain', buffer: Buffer.from('a visitor\'s hello\n') },
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('some notes\n') },
    ]);
    const hello = page.locator('[data-upload="hello.txt"]');
    const notes = page.locator('[data-upload="notes.txt"]');
    await hello.getByText('Saved as hello (1).txt', { exact: false }).waitFor();
    await notes.getByText('Saved as notes.txt', { exact: false }).waitFor();
    expect(await hello.getByRole('progressbar', { name: 'Upload of hello.txt' }).getAttribute('aria-valuenow')).toBe('100');
    await expectAccessible(page, 'link page: uploaded, narrow');
    expect(await sidewaysScrollers(page)).toEqual([]);

    // What the server holds: the first hello untouched, the visitor's beside it.
    const listed = (await site.admin('GET', '/folders/Inbox')) as { path: string; size: number }[];
    expect(listed.map((entry) => entry.path).sort()).toEqual(['Inbox/hello (1).txt', 'Inbox/hello.txt', 'Inbox/notes.txt']);
    expect(listed.find((entry) => entry.path === 'Inbox/hello.txt')?.size).toBe('was there first\n'.length);
    expect(problems).toEqual([]);
    await page.close();
  });

  itOnSqlite('a link that does not exist shows the not-found page, with the server\'s sentence', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${site.baseUrl}/f/NoSuchLinkCode12345`);
    await page.getByRole('heading', { name: 'Link not available' }).waitFor();
    await page.getByText('This link does not exist or is no longer available.', { exact: true }).waitFor();
    expect(await page.getByRole('form').count()).toBe(0);
    await expectAccessible(page, 'link page: not found');
    await page.close();
  });

  itOnSqlite('serves the page at /f/<code> with the console\'s security headers, for any code', async () => {
    const response = await fetch(`${site.baseUrl}/f/AnyCode-123_x`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await response.text()).toContain('<div id="root">');
  });
});
