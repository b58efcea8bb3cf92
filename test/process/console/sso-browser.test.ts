import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, chromiumPerTest, expectAccessible, pageProblems } from '../../support/browser.js';
import { startOpenIdProvider, type TestOpenIdProvider } from '../../support/openid-provider.js';
import { temporaryFolders } from '../../support/temp-dirs.js';
import { makeTestCertificateAuthority } from '../../support/tls-certificates.js';
import { ADMIN, startConsoleServer, type ConsoleServer } from './console-server.js';

// One Chromium for the file; the provider's throwaway certificate is the browser's to accept (Atrium's server trusts its CA by NODE_EXTRA_CA_CERTS).
const browser = chromiumPerTest({ ignoreHTTPSErrors: true });
const folders = temporaryFolders();

/**
 * Single sign-on in Chromium, against the built server and a real OpenID provider over HTTPS: the
 * sign-in page's "Sign in with" button, the provider's own sign-in pages, and back in the console
 * signed in, where the page the person wanted opens (the Site settings' Sign-in providers, whose
 * form is checked with axe). SQLite only: nothing here differs by database (test/sso covers both).
 */
/** Signs in at the provider's own (development) sign-in page, once the browser is there. */
async function signInAtProvider(page: Page, issuer: string, login: string) {
  await page.waitForURL((url) => url.href.startsWith(issuer));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
}

describe.runIf(browserAvailable())('single sign-on in the console in Chromium', () => {
  let site: ConsoleServer;
  let op: TestOpenIdProvider;

  beforeAll(async () => {
    const dir = folders('atrium-sso-browser-');
    const ca = makeTestCertificateAuthority(dir);
    // The server trusts the provider's CA the way any Node.js program is told to: no setting of Atrium's.
    site = await startConsoleServer('sqlite', { env: { NODE_EXTRA_CA_CERTS: ca.caFile } });
    op = await startOpenIdProvider(dir, [`${site.baseUrl}/api/public/sso/callback`], ca);
    const provider = await site.admin('POST', '/sso_providers', {
      label: 'Example ID', issuer_url: op.issuer, client_id: op.clientId, client_secret: op.clientSecret, provision_users: true,
    });
    // The first administrator's account at the provider, linked by an administrator (a matching name alone would not do).
    const [admin] = await site.admin('GET', `/users?filter[username]=${ADMIN.username}`);
    op.setAccount('admin-at-idp', { preferred_username: ADMIN.username, name: 'First Admin' });
    await site.admin('POST', `/sso_providers/${provider.id}/links`, { user_id: admin.id, subject: 'admin-at-idp' });
  }, 60_000);
  afterAll(async () => {
    await site?.stop();
    await op?.close();
  });

  it('signs in with the provider and opens the page the person wanted, signed in', async () => {
    const page = await browser.context.newPage();
    const problems = pageProblems(page);
    await page.goto(`${site.baseUrl}/admin/site`);
    const button = page.getByRole('link', { name: 'Sign in with Example ID' });
    await button.waitFor();
    await page.getByText('If your organisation signs you in elsewhere, use the button above.').waitFor();
    await expectAccessible(page, 'the sign-in page with a provider');

    await button.click();
    // The provider's own sign-in page (oidc-provider's development pages), at its own address.
    await signInAtProvider(page, op.issuer, 'admin-at-idp');

    await page.waitForURL(`${site.baseUrl}/admin/site`);
    await page.getByRole('heading', { name: 'Sign-in providers' }).waitFor();
    const row = page.locator('[data-provider="Example ID"]');
    await row.waitFor();
    await row.getByRole('button', { name: 'Edit Example ID' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change Example ID' });
    await dialog.getByText(`${site.baseUrl}/api/public/sso/callback`).waitFor();
    expect(await dialog.getByLabel('Issuer URL').inputValue()).toBe(op.issuer);
    await expectAccessible(page, 'site settings, a sign-in provider being changed');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    // The session is the HttpOnly cookie's: nothing of it is in the page's reach, nor in the address.
    const [session] = (await browser.context.cookies(`${site.baseUrl}/api/rest/v1`)).filter((c) => c.name === 'atrium_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    expect(await page.evaluate(() => (globalThis as any).document.cookie)).toBe('');
    expect(page.url()).not.toContain(session?.value);
    expect(problems).toEqual([]);

    const [login] = await site.admin('GET', '/history?filter[action]=login&per_page=1');
    expect(login).toMatchObject({ username: ADMIN.username, interface: 'web', display: `${ADMIN.username} signed in with Example ID (web)` });
  });

  it('a user the provider made confirms a change by signing in at the provider again', async () => {
    op.setAccount('noor-at-idp', { preferred_username: 'noor', name: 'Noor' });
    const page = await browser.context.newPage();
    const problems = pageProblems(page);
    await page.goto(`${site.baseUrl}/account`);
    await page.getByRole('link', { name: 'Sign in with Example ID' }).click();
    await signInAtProvider(page, op.issuer, 'noor-at-idp');
    await page.waitForURL(`${site.baseUrl}/account`);
    await page.getByText('You have no API keys.').waitFor();

    // No password to ask for: the dialog sends the person to the provider, and back here.
    await page.getByLabel('Key name').fill('laptop');
    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
    await dialog.getByText('sign in at your sign-in provider again', { exact: false }).waitFor();
    expect(await dialog.getByRole('textbox', { name: 'Your password' }).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Sign in again' }).click();
    // The provider asks for the sign-in again (prompt=login), whatever session it holds.
    await signInAtProvider(page, op.issuer, 'noor-at-idp');
    await page.waitForURL(`${site.baseUrl}/account`);

    // Made once more, the change goes through without a dialog.
    await page.getByLabel('Key name').fill('laptop');
    await page.getByRole('button', { name: 'Create key' }).click();
    expect(await page.getByTestId('new-key-secret').textContent()).toMatch(/^atr_/);
    expect(await dialog.count()).toBe(0);
    const [noor] = await site.admin('GET', '/users?filter[username]=noor');
    expect(noor).toMatchObject({ authentication_method: 'sso', name: 'Noor' });
    expect(await site.admin('GET', `/api_keys?user_id=${noor.id}`)).toHaveLength(1);
    expect(problems).toEqual([]);
  });
});
