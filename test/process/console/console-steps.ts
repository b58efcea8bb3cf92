import type { Page } from 'playwright-core';

// Steps a person takes in the console, shared by the tests that take them.

/** Signs in on the sign-in form the page shows. */
export async function signInAs(page: Page, who: { username: string; password: string }): Promise<void> {
  await page.getByLabel('Username').fill(who.username);
  await page.getByRole('textbox', { name: 'Password' }).fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Opens the ⋯ menu of the row named `row` on the Files page; the menu, once the server said what it offers. */
export async function openFileMenu(page: Page, row: string) {
  await page.getByRole('button', { name: `Actions for ${row}` }).click();
  const menu = page.getByRole('menu', { name: `Actions for ${row}` });
  await menu.and(page.locator('[data-shares="true"], [data-shares="false"]')).waitFor();
  return menu;
}
