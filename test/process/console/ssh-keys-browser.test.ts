import type { Page } from 'playwright-core';
import ssh2 from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, chromiumPerTest, expectAccessible, pageProblems } from '../../support/browser.js';
import { ADMIN, startConsoleServer, type ConsoleServer } from './console-server.js';
import { generateOpenSshKeyPairSync } from '../../../src/lib/openssh-key-pair.js';
import { CONSOLE_DATABASES, itOnSqliteAlone } from './console-databases.js';

const SAM = { username: 'sam', password: 'sam has a long password' };
// One Chromium for the file, both databases' runs; each test in a context of its own.
const browser = chromiumPerTest();

async function signInAs(page: Page, who: { username: string; password: string }) {
  await page.getByLabel('Username').fill(who.username);
  await page.getByRole('textbox', { name: 'Password' }).fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Answers the console's reauthentication dialog with a password. */
async function confirmWith(page: Page, password: string) {
  const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
  await dialog.getByRole('textbox', { name: 'Your password' }).fill(password);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
}

/**
 * The SSH keys part of the Account page (docs/sftp.md): add a pasted key (the server's refusal
 * shown), generate a pair whose private key is shown once and kept nowhere, delete with a
 * confirmation, each change after the password is asked again; administrators see a user's keys.
 */
describe.runIf(browserAvailable()).each(CONSOLE_DATABASES)('SSH keys in the console in Chromium [%s]', (database) => {
  const itOnSqlite = itOnSqliteAlone(database);
  let site: ConsoleServer;
  let sam: { id: number };

  beforeAll(async () => {
    site = await startConsoleServer(database);
    sam = await site.admin('POST', '/users', { username: SAM.username, password: SAM.password });
  }, 60_000);
  afterAll(async () => {
    await site?.stop();
  });

  it('a user adds a pasted key (a weak one refused with the server\'s reason), generates a pair shown once, and deletes a key', async () => {
    const page = await browser.context.newPage();
    const problems = pageProblems(page);
    await page.goto(`${site.baseUrl}/account`);
    await signInAs(page, SAM);
    await page.getByRole('heading', { name: 'SSH keys' }).waitFor();
    await page.getByText('You have no SSH keys.').waitFor();

    // A weak key: refused before any password is asked, with the server's sentence.
    const form = page.getByRole('form', { name: 'New SSH key' });
    await form.getByLabel('Key title').fill('old laptop');
    await form.getByLabel('Public key').fill(ssh2.utils.generateKeyPairSync('rsa', { bits: 1024 }).public);
    await form.getByRole('button', { name: 'Add key' }).click();
    await page.getByRole('alert').getByText('at least 2048', { exact: false }).waitFor();
    await page.getByRole('alert').getByText('public_key is an RSA key of 1024 bits', { exact: false }).waitFor();

    // A good key, after the password.
    const line = generateOpenSshKeyPairSync('ed25519', { comment: 'sam@laptop' }).public.trim();
    await form.getByLabel('Key title').fill('laptop');
    await form.getByLabel('Public key').fill(line);
    await form.getByRole('button', { name: 'Add key' }).click();
    await confirmWith(page, SAM.password);
    const row = page.locator('[data-ssh-key="laptop"]');
    await row.waitFor();
    const [stored] = await site.admin('GET', `/public_keys?user_id=${sam.id}`);
    expect(stored).toMatchObject({ title: 'laptop', public_key: line });
    await row.getByText(`SHA256:${stored.fingerprint_sha256}`).waitFor();
    await row.getByRole('cell', { name: 'Ed25519', exact: true }).waitFor();
    await row.getByRole('cell', { name: 'Never', exact: true }).waitFor();
    expect(await form.getByLabel('Public key').inputValue()).toBe('');
    await expectAccessible(page, 'my account, an SSH key listed');

    // A generated pair: the private key on screen once, working with the public key the server kept.
    await page.getByRole('button', { name: 'Generate a key pair…' }).click();
    const generate = page.getByRole('dialog', { name: 'Generate a key pair' });
    await generate.getByLabel('Key title').fill('generated');
    await generate.getByRole('button', { name: 'Generate' }).click();
    await confirmWith(page, SAM.password);
    const shown = page.getByTestId('new-private-key');
    await shown.waitFor();
    const privateKey = (await shown.textContent()) ?? '';
    expect(privateKey).toMatch(/^-----BEGIN OPENSSH PRIVATE KEY-----\n[\s\S]+-----END OPENSSH PRIVATE KEY-----\n?$/);
    await page.getByRole('button', { name: 'Copy private key' }).waitFor();
    await expectAccessible(page, 'a generated private key, shown once');
    const generated = (await site.admin('GET', `/public_keys?user_id=${sam.id}`)).find((k: { title: string }) => k.title === 'generated');
    const data = Buffer.from('signed in the test');
    const signature = (ssh2.utils.parseKey(privateKey) as ssh2.ParsedKey).sign(data);
    expect((ssh2.utils.parseKey(generated.public_key) as ssh2.ParsedKey).verify(data, signature)).toBe(true);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.locator('[data-ssh-key="generated"]').waitFor();
    const body = privateKey.split('\n')[1] as string;
    expect(await page.content()).not.toContain(body);
    // Evaluated as text: the test's own types know no DOM.
    const kept = await page.evaluate<string>('JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage } })');
    expect(kept).not.toContain(body);
    await page.reload();
    await page.locator('[data-ssh-key="generated"]').waitFor();
    expect(await page.content()).not.toContain(body);

    // Deleting asks first, then for the password.
    await page.getByRole('button', { name: 'Delete laptop' }).click();
    await page.getByRole('dialog', { name: 'Delete SSH key' }).getByRole('button', { name: 'Delete' }).click();
    await confirmWith(page, SAM.password);
    await page.locator('[data-ssh-key="laptop"]').waitFor({ state: 'detached' });
    expect((await site.admin('GET', `/public_keys?user_id=${sam.id}`)).map((k: { title: string }) => k.title)).toEqual(['generated']);
    expect(problems).toEqual([]);
    await page.close();
  });

  itOnSqlite('an administrator sees a user\'s SSH keys beside their API keys, and adds one for them', async () => {
    const page = await browser.context.newPage();
    const problems = pageProblems(page);
    await page.goto(`${site.baseUrl}/`);
    await signInAs(page, ADMIN);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
    await page.getByRole('button', { name: 'Actions for sam' }).click();
    await page.getByRole('menu', { name: 'Actions for sam' }).getByRole('menuitem', { name: 'Permissions and API keys' }).click();
    const access = page.getByRole('dialog', { name: 'Access of sam' });
    await access.getByRole('heading', { name: 'SSH keys of sam' }).waitFor();
    await access.locator('[data-ssh-key="generated"]').waitFor();
    const form = access.getByRole('form', { name: 'New SSH key' });
    await form.getByLabel('Key title').fill('deploy job');
    await form.getByLabel('Public key').fill(ssh2.utils.generateKeyPairSync('ecdsa', { bits: 256 }).public);
    await form.getByRole('button', { name: 'Add key' }).click();
    await confirmWith(page, ADMIN.password);
    await access.locator('[data-ssh-key="deploy job"]').getByRole('cell', { name: 'ECDSA P-256', exact: true }).waitFor();
    const keys = await site.admin('GET', `/public_keys?user_id=${sam.id}`);
    expect(keys.map((k: { title: string; username: string }) => [k.title, k.username])).toEqual([['generated', 'sam'], ['deploy job', 'sam']]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
