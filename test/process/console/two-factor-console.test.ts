import { generate } from 'otplib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, chromiumPerTest, expectAccessible, pageProblems, requestsOf, sidewaysScrollers } from '../../support/browser.js';
import { ADMIN, startConsoleServer, type ConsoleServer } from './console-server.js';
import { signInAs } from './console-steps.js';

const RITA = { username: 'rita', password: 'rita has a long password' };
const SUE = { username: 'sue', password: 'sue has a long password' };
const PAM = { username: 'pam', password: 'pam has a long password' };

/** The app's code for the step `offsetSeconds` from now, as the person's phone would show it. */
function codeFor(secret: string, offsetSeconds = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSeconds });
}

/** A six-digit code the app shows at no step near now: surely wrong. */
async function wrongCode(secret: string): Promise<string> {
  const near = new Set(await Promise.all([-60, -30, 0, 30, 60].map((offset) => codeFor(secret, offset))));
  return ['000000', '111111', '222222'].find((code) => !near.has(code)) as string;
}

/** Answers the console's reauthentication dialog with a password. */
async function confirmWith(page: Page, password: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
  await dialog.getByRole('textbox', { name: 'Your password' }).fill(password);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
}

/** The secret the enrolment shows for typing, without the spaces that group it. */
async function shownSecret(page: Page): Promise<string> {
  return ((await page.getByTestId('totp-secret').textContent()) ?? '').replace(/\s+/g, '');
}

/**
 * The recovery codes on screen, once; the person says they saved them and goes on. `state` names
 * the screen for axe, where it has not been checked already (the same codes at sign-in).
 */
async function saveRecoveryCodes(page: Page, continueLabel: string, state?: string): Promise<string[]> {
  const list = page.getByRole('list', { name: 'Recovery codes' });
  await list.waitFor();
  const codes = (await list.getByRole('listitem').allTextContents()).map((code) => code.trim());
  await page.getByRole('button', { name: 'Download codes' }).waitFor();
  if (state !== undefined) await expectAccessible(page, state);
  const next = page.getByRole('button', { name: continueLabel });
  expect(await next.isDisabled()).toBe(true);
  await page.getByLabel('I have saved these codes').check();
  await next.click();
  return codes;
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Sign in to Atrium' }).waitFor();
}

/** Signed in: the console's navigation is there. */
async function signedIn(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}

/**
 * Two-factor authentication in the console (docs/authentication.md#two-factor-authentication): a
 * person sets up an authenticator app in My account and signs in with its codes and a recovery
 * code; a person the site requires it of sets it up as they sign in; an administrator sees and
 * resets it. One server and one Chromium for the file, shared by every test in it (a test of
 * passkeys adds its own user and its virtual authenticator); each test starts in a fresh browser
 * profile, signed out. The codes are computed here from the secret the page shows, as the app would.
 */
describe.runIf(browserAvailable())('two-factor authentication in the console, in Chromium [sqlite]', () => {
  let site: ConsoleServer;
  const browser = chromiumPerTest();
  let rita: { id: number };
  let sue: { id: number };

  beforeAll(async () => {
    site = await startConsoleServer('sqlite');
    rita = await site.admin('POST', '/users', { username: RITA.username, password: RITA.password });
    sue = await site.admin('POST', '/users', { username: SUE.username, password: SUE.password });
  }, 60_000);
  afterAll(async () => {
    await site?.stop();
  });

  it('a user sets up an authenticator app in My account, signs in with its code and with a recovery code (a wrong or used one refused), is sent back to the password when the second step runs out, makes new recovery codes and removes the app', async () => {
    const page = await browser.context.newPage();
    const problems = pageProblems(page);
    await page.goto(`${site.baseUrl}/account`);
    await signInAs(page, RITA);
    const section = page.getByTestId('two-factor');
    await section.and(page.locator('[data-two-factor="off"]')).waitFor();

    // Setting it up asks for the password first, then shows the QR code and the key to type.
    await section.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await confirmWith(page, RITA.password);
    const setup = page.getByRole('dialog', { name: 'Set up an authenticator app' });
    await setup.getByRole('img', { name: 'QR code to scan with your authenticator app' }).waitFor();
    const secret = await shownSecret(page);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(await page.getByTestId('totp-secret').textContent()).toMatch(/^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/);
    await expectAccessible(page, 'setting up an authenticator app');
    const code = setup.getByLabel('Enter the 6-digit code the app shows');
    expect(await code.getAttribute('autocomplete')).toBe('one-time-code');
    await code.fill(await wrongCode(secret));
    await setup.getByRole('button', { name: 'Turn on' }).click();
    await setup.getByRole('alert').getByText('That code is not right.', { exact: false }).waitFor();
    await code.fill(await codeFor(secret));
    await setup.getByRole('button', { name: 'Turn on' }).click();
    const recoveryCodes = await saveRecoveryCodes(page, 'Done', 'recovery codes, shown once');
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    await section.and(page.locator('[data-two-factor="on"]')).waitFor();
    await section.getByText('10 recovery codes are left.', { exact: false }).waitFor();
    await section.locator('[data-method="app"]').getByText('On', { exact: true }).waitFor();
    expect(await site.admin('GET', `/users/${rita.id}`)).toMatchObject({ active_2fa: true, type_of_2fa: 'totp' });
    // Nothing of the secret or the codes is kept where scripts could read it later.
    const kept = await page.evaluate<string>('JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage } })');
    expect(kept).not.toContain(secret);
    expect(kept).not.toContain(recoveryCodes[0]);
    await signOut(page);

    // The password alone is not enough: the second step asks for the app's code.
    await signInAs(page, RITA);
    const otp = page.getByLabel('Authentication code');
    await otp.waitFor();
    expect(await otp.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await otp.getAttribute('inputmode')).toBe('numeric');
    await page.getByText('Enter the 6-digit code from your authenticator app.').waitFor();
    await expectAccessible(page, 'the second step of a sign-in');
    await otp.fill(await wrongCode(secret));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('alert').getByText('That code is not right.', { exact: false }).waitFor();
    expect(await otp.inputValue()).toBe('');
    // The next step's code: the one used to set it up may not count twice.
    await otp.fill(await codeFor(secret, 30));
    await page.getByRole('button', { name: 'Continue' }).click();
    await signedIn(page);
    await signOut(page);

    // A recovery code signs in once.
    const [firstCode, secondCode] = recoveryCodes as [string, string];
    await signInAs(page, RITA);
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByLabel('Recovery code').fill(firstCode);
    await page.getByRole('button', { name: 'Continue' }).click();
    await signedIn(page);
    await signOut(page);
    await signInAs(page, RITA);
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByLabel('Recovery code').fill(firstCode);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('alert').getByText('That recovery code is not right, or it has been used already.', { exact: false }).waitFor();

    // A sign-in left too long at its second step goes back to the password, and says why; the
    // code it was answered with is not spent.
    await site.expirePartialSessions();
    await page.getByLabel('Recovery code').fill(secondCode);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('status').getByText('That sign-in took too long', { exact: false }).waitFor();
    expect(await page.getByLabel('Username').inputValue()).toBe(RITA.username);
    await page.getByRole('textbox', { name: 'Password' }).fill(RITA.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByLabel('Recovery code').fill(secondCode);
    await page.getByRole('button', { name: 'Continue' }).click();
    await signedIn(page);
    await page.goto(`${site.baseUrl}/account`);
    await page.getByTestId('recovery-codes-left').getByText('8 recovery codes are left.', { exact: false }).waitFor();

    // New recovery codes, after the password, in place of the old ones.
    await section.getByRole('button', { name: 'Make new recovery codes' }).click();
    await page.getByRole('dialog', { name: 'Make new recovery codes' }).getByRole('button', { name: 'Make new codes' }).click();
    await confirmWith(page, RITA.password);
    const newCodes = await saveRecoveryCodes(page, 'Done');
    expect(newCodes).toHaveLength(10);
    expect(newCodes).not.toContain(recoveryCodes[2]);
    await page.getByTestId('recovery-codes-left').getByText('10 recovery codes are left.', { exact: false }).waitFor();

    // Removing the app asks first, then for the password.
    await section.locator('[data-method="app"]').getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('dialog', { name: 'Remove the authenticator app' }).getByRole('button', { name: 'Remove' }).click();
    await confirmWith(page, RITA.password);
    await section.and(page.locator('[data-two-factor="off"]')).waitFor();
    expect(await site.admin('GET', `/users/${rita.id}`)).toMatchObject({ active_2fa: false });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a user adds a passkey in My account, then signs in with the password and the passkey', async () => {
    const pam = await site.admin('POST', '/users', { username: PAM.username, password: PAM.password });
    const page = await browser.context.newPage();
    const problems = pageProblems(page);
    // The browser's authenticator, in software (the DevTools protocol's): a device that holds
    // passkeys and says yes to its person's fingerprint.
    const devtools = await browser.context.newCDPSession(page);
    await devtools.send('WebAuthn.enable');
    const { authenticatorId } = await devtools.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    // A passkey belongs to a site's name: the console is opened at localhost, as 127.0.0.1 cannot hold one.
    const byName = site.baseUrl.replace('127.0.0.1', 'localhost');
    await page.goto(`${byName}/account`);
    await signInAs(page, PAM);
    const section = page.getByTestId('two-factor');
    await section.and(page.locator('[data-two-factor="off"]')).waitFor();
    await section.getByRole('button', { name: 'Add a passkey' }).click();
    const setup = page.getByRole('dialog', { name: 'Add a passkey' });
    await setup.getByRole('button', { name: 'Make a passkey' }).click();
    await confirmWith(page, PAM.password);
    await setup.getByLabel('Passkey name').fill('work laptop');
    await setup.getByRole('button', { name: 'Save passkey' }).click();
    // The first second factor comes with recovery codes.
    expect(await saveRecoveryCodes(page, 'Done')).toHaveLength(10);
    await section.locator('[data-passkey="work laptop"]').waitFor();
    expect((await devtools.send('WebAuthn.getCredentials', { authenticatorId })).credentials).toHaveLength(1);
    expect(await site.admin('GET', `/users/${pam.id}`)).toMatchObject({ active_2fa: true, type_of_2fa: 'webauthn' });
    await signOut(page);

    // The password alone is not enough; the passkey finishes the sign-in.
    await signInAs(page, PAM);
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await signedIn(page);
    const [credential] = (await devtools.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
    expect(credential?.signCount).toBeGreaterThan(0);
    // My account shows when it was last used.
    await page.goto(`${byName}/account`);
    const row = section.locator('[data-passkey="work laptop"]');
    await row.waitFor();
    expect(await row.textContent()).not.toContain('Never');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('where the site requires it, a user without it sets it up as they sign in; an administrator sees it, and resets it', async () => {
    // On a phone: the QR code is on another screen, and the key is typed.
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    const problems = pageProblems(page);
    // Sue was signed in before the site required it, and her session ran out while she was away:
    // the browser still holds its cookie when she signs in again.
    await page.goto(`${site.baseUrl}/`);
    const requests = requestsOf(page);
    await signInAs(page, SUE);
    await page.getByRole('button', { name: 'Open navigation' }).waitFor();
    await requests.quiet();
    await site.ageSessions(7 * 24 * 3600_000);
    await site.admin('PATCH', '/site', { require_2fa: true, require_2fa_user_type: 'all' });
    try {
      await page.reload();
      await signInAs(page, SUE);
      await page.getByRole('heading', { name: 'Set up two-factor authentication' }).waitFor();
      await page.getByRole('img', { name: 'QR code to scan with your authenticator app' }).waitFor();
      await expectAccessible(page, 'setting up two-factor authentication as one signs in');
      expect(await sidewaysScrollers(page), 'setting up at 390 px').toEqual([]);
      const secret = await shownSecret(page);
      await page.getByLabel('Enter the 6-digit code the app shows').fill(await codeFor(secret));
      await page.getByRole('button', { name: 'Turn on' }).click();
      await page.getByRole('list', { name: 'Recovery codes' }).waitFor();
      expect(await sidewaysScrollers(page), 'the recovery codes at 390 px').toEqual([]);
      const codes = await saveRecoveryCodes(page, 'Continue to Atrium');
      expect(codes).toHaveLength(10);
      await page.getByRole('button', { name: 'Open navigation' }).waitFor();
      expect(await site.admin('GET', `/users/${sue.id}`)).toMatchObject({ active_2fa: true, type_of_2fa: 'totp' });
      // My account says the site requires it.
      await page.goto(`${site.baseUrl}/account`);
      await page.getByTestId('two-factor').getByText('This site requires two-factor authentication for your account.').waitFor();
      // The administrator below signs in in this browser: Sue leaves it first.
      await signOut(page);
    } finally {
      await site.admin('PATCH', '/site', { require_2fa: false });
    }

    expect(problems).toEqual([]);
    await page.close();

    // An administrator sees who has it, and resets Sue's after she lost her phone.
    const admin = await browser.context.newPage();
    const adminProblems = pageProblems(admin);
    await admin.goto(`${site.baseUrl}/admin/users`);
    await signInAs(admin, ADMIN);
    const row = admin.locator('[data-user="sue"]');
    await row.locator('[data-column="two-factor"]').getByText('Authenticator app', { exact: true }).waitFor();
    await admin.getByRole('button', { name: 'Actions for sue' }).click();
    await admin.getByRole('menu', { name: 'Actions for sue' }).getByRole('menuitem', { name: 'Reset two-factor authentication' }).click();
    const reset = admin.getByRole('dialog', { name: 'Reset two-factor authentication' });
    await reset.getByText('signed out everywhere', { exact: false }).waitFor();
    await reset.getByRole('button', { name: 'Reset' }).click();
    await confirmWith(admin, ADMIN.password);
    await row.locator('[data-column="two-factor"]').getByText('Off', { exact: true }).waitFor();
    expect(await site.admin('GET', `/users/${sue.id}`)).toMatchObject({ active_2fa: false });

    // Her own rule, over the site's, in Edit.
    await admin.getByRole('button', { name: 'Actions for sue' }).click();
    await admin.getByRole('menu', { name: 'Actions for sue' }).getByRole('menuitem', { name: 'Edit' }).click();
    const edit = admin.getByRole('dialog', { name: 'Edit sue' });
    await edit.getByRole('combobox', { name: 'Two-factor authentication required' }).click();
    await admin.getByRole('option', { name: 'Always' }).click();
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'detached' });
    expect(await site.admin('GET', `/users/${sue.id}`)).toMatchObject({ require_2fa: 'always_require' });

    // The site's settings, at a phone's width too.
    await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Site settings' }).click();
    await admin.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
    await admin.getByText('WebDAV and SFTP clients cannot ask for a code', { exact: false }).waitFor();
    await expectAccessible(admin, 'the site settings, two-factor authentication');
    await admin.setViewportSize({ width: 390, height: 844 });
    expect(await sidewaysScrollers(admin), 'the site settings at 390 px').toEqual([]);
    expect(adminProblems).toEqual([]);
    await admin.close();
  });
});
