import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_OPTIONS } from '../../../bench/console/chromium.js';
import { browserAvailable, chromiumPerTest, expectAccessible, pageProblems, sidewaysScrollers } from '../../support/browser.js';
import { startConsoleServer, type ConsoleServer } from './console-server.js';
import { CONSOLE_DATABASES, itOnSqliteAlone } from './console-databases.js';

const WENDY = { username: 'wendy', password: 'wendy has a long password' };
const COPY_NAME = 'copy new files from inbox/ to archive/%Y/';
const HOSTILE_NAME = '<img src=x onerror=alert(1)> cleanup';
// One Chromium for the file, both databases' runs; each test in a context of its own.
const browser = chromiumPerTest();

async function signInAs(page: Page, who: { username: string; password: string }) {
  await page.getByLabel('Username').fill(who.username);
  await page.getByRole('textbox', { name: 'Password' }).fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The row of the automation named `name` in the list. */
const rowOf = (page: Page, name: string) => page.locator(`[data-automation="${name.replace(/"/g, '\\"')}"]`);

/**
 * Automations in the console (docs/automations.md, docs/console.md): a Workspace Administrator
 * creates them with the form's words, sees them listed with their trigger in words and their next
 * run times, runs one by hand and reads its runs, and deletes one after confirming; a refusal of
 * the API is shown at the field it names; a webhook URL is shown once.
 */
describe.runIf(browserAvailable()).each(CONSOLE_DATABASES)('Automations in the console in Chromium [%s]', (database) => {
  const itOnSqlite = itOnSqliteAlone(database);
  let site: ConsoleServer;
  let orbit: number;

  beforeAll(async () => {
    site = await startConsoleServer(database);
    orbit = (await site.admin('POST', '/workspaces', { name: 'Orbit' })).id;
    await site.admin('POST', '/users', { ...WENDY, workspace_id: orbit, workspace_admin: true });
    await site.admin('POST', '/folders/inbox', { mkdir_parents: true }, orbit);
    // A name that is markup, to be shown as text.
    await site.admin('POST', '/automations', { name: HOSTILE_NAME, automation: 'delete_file', path: 'old', trigger: 'manual' }, orbit);
  }, 60_000);
  afterAll(async () => {
    await site?.stop();
  });

  it('an administrator creates an action-triggered copy and a daily one, sees them in words with next run times, and the page fits a phone', async () => {
    const page = await browser.context.newPage();
    const problems = pageProblems(page);
    await page.goto(`${site.baseUrl}/`);
    await signInAs(page, WENDY);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Automations' }).click();
    await page.getByRole('heading', { name: 'Automations', level: 1 }).waitFor();
    await rowOf(page, HOSTILE_NAME).getByRole('link', { name: HOSTILE_NAME }).waitFor();
    expect(await page.locator('img').count()).toBe(0);
    await expectAccessible(page, 'automations, the list');

    // 1. Copy what is uploaded into inbox/: first without the action, which the API refuses by name.
    await page.getByRole('button', { name: 'New automation' }).click();
    const create = page.getByRole('dialog', { name: 'New automation' });
    await create.getByLabel('Name').fill(COPY_NAME);
    await create.getByRole('radio', { name: 'Copy files' }).check();
    await create.getByRole('radio', { name: 'When files change' }).check();
    await create.getByRole('textbox', { name: 'Folder' }).fill('inbox');
    await create.getByRole('textbox', { name: 'Destination 1' }).fill('archive/%Y/');
    await create.getByText('Tokens', { exact: true }).click();
    await create.getByText('the year of the run, for example').waitFor();
    await expectAccessible(page, 'automations, the new automation dialog');
    await create.getByRole('button', { name: 'Create automation' }).click();
    // Shown at the field the refusal names, and said above the form.
    await create.locator('[data-field="trigger_actions"]').getByText(/can't be blank with trigger action/).waitFor();
    await create.getByRole('alert').first().waitFor();
    await create.getByRole('group', { name: 'Which file actions start it' }).getByRole('checkbox', { name: 'Uploaded or created' }).check();
    await create.getByRole('button', { name: 'Create automation' }).click();
    await create.waitFor({ state: 'detached' });
    const copyRow = rowOf(page, COPY_NAME);
    await copyRow.getByText('When a file is created in inbox').waitFor();
    await copyRow.getByText('Copies files from inbox to archive/%Y/').waitFor();
    const [copy] = (await site.admin('GET', '/automations', undefined, orbit)).filter((a: { name: string }) => a.name === COPY_NAME);
    expect(copy).toMatchObject({
      automation: 'copy_file', trigger: 'action', trigger_actions: ['create'], path: 'inbox', destinations: ['archive/%Y/'], workspace_id: orbit, next_run_times: [],
    });

    // 2. A daily one: its schedule in words, and its next run times on its page.
    await page.getByRole('button', { name: 'New automation' }).click();
    const daily = page.getByRole('dialog', { name: 'New automation' });
    await daily.getByLabel('Name').fill('month folders');
    await daily.getByRole('radio', { name: 'Create folders' }).check();
    await daily.getByRole('radio', { name: 'On a calendar' }).check();
    await daily.getByRole('textbox', { name: 'Times of day' }).fill('06:30');
    await daily.getByRole('textbox', { name: 'Destination 1' }).fill('reports/%Y-%m/');
    await daily.getByRole('button', { name: 'Create automation' }).click();
    await daily.waitFor({ state: 'detached' });
    const dailyRow = rowOf(page, 'month folders');
    await dailyRow.getByText('Every day at 06:30, UTC').waitFor();
    await dailyRow.getByRole('link', { name: 'month folders' }).click();
    await page.getByRole('heading', { name: 'month folders', level: 1 }).waitFor();
    const nextRuns = page.getByTestId('next-run-times');
    await nextRuns.waitFor();
    expect(await nextRuns.getByRole('listitem').count()).toBe(5);
    await expectAccessible(page, 'an automation, its page');

    // 3. A phone's width: the list and the page fit it.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await sidewaysScrollers(page)).toEqual([]);
    await page.getByRole('link', { name: '← All automations' }).click();
    await copyRow.waitFor();
    // The list keeps its name and last run as columns, and says what each does and when beneath the name.
    await dailyRow.locator('td').first().getByText('Every day at 06:30, UTC').waitFor();
    expect(await dailyRow.locator('td').first().getByText('Creates the folder reports/%Y-%m/').count()).toBe(1);
    expect(await sidewaysScrollers(page)).toEqual([]);
    await expectAccessible(page, 'automations, the list, 390 px');
    await page.getByRole('button', { name: 'New automation' }).click();
    await page.getByRole('dialog', { name: 'New automation' }).waitFor();
    expect(await sidewaysScrollers(page)).toEqual([]);

    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  itOnSqlite('runs a manual automation now and lists the run with its log; an action-triggered one says why it cannot; one is deleted after confirming', async () => {
    const manual = await site.admin('POST', '/automations', { name: 'tidy by hand', automation: 'delete_file', path: 'tmp', trigger: 'manual' }, orbit);
    const onUpload = await site.admin('POST', '/automations', {
      name: 'on upload', automation: 'move_file', path: 'drop', trigger: 'action', trigger_actions: ['create'], destinations: ['sorted/'],
    }, orbit);
    const page = await browser.context.newPage();
    const problems = pageProblems(page);
    await page.goto(`${site.baseUrl}/admin/automations/${manual.id}`);
    await signInAs(page, WENDY);
    await page.getByRole('heading', { name: 'tidy by hand', level: 1 }).waitFor();
    await page.getByText('No runs yet.').waitFor();
    await page.getByText('None: it does not run on a schedule').waitFor();

    await page.getByRole('button', { name: 'Run now' }).click();
    await page.getByRole('status').getByText('A run was queued').waitFor();
    const runs = page.getByRole('table', { name: 'Runs' });
    // Queued until the run engine takes it, or already further along.
    await runs.locator('tbody tr').first().getByText(/^(queued|running|success|partial failure|failure)$/).waitFor();
    const [run] = await site.admin('GET', `/automation_runs?automation_id=${manual.id}`, undefined, orbit);
    expect(run).toMatchObject({ automation_id: manual.id, workspace_id: orbit });
    await runs.getByRole('button', { name: /^Log of the run of / }).first().click();
    const log = page.getByRole('dialog', { name: /^Log of the run of / });
    await log.getByTestId('run-log').or(log.getByText(/^The log is empty/)).first().waitFor();
    await expectAccessible(page, 'an automation run, its log');
    await log.getByRole('button', { name: 'Close' }).click();
    await log.waitFor({ state: 'detached' });
    // On a phone: the run's status, when it started with what it did beneath, and its log.
    await page.setViewportSize({ width: 390, height: 844 });
    await runs.locator('tbody tr').first().locator('td').nth(1).getByText(/ done, \d+ failed$/).waitFor();
    expect(await sidewaysScrollers(page)).toEqual([]);
    await page.setViewportSize(PAGE_OPTIONS.viewport);

    // An action-triggered automation runs per file: no Run now, and a sentence why.
    await page.goto(`${site.baseUrl}/admin/automations/${onUpload.id}`);
    await page.getByRole('heading', { name: 'on upload', level: 1 }).waitFor();
    await page.getByText('cannot be run by hand').waitFor();
    expect(await page.getByRole('button', { name: 'Run now' }).count()).toBe(0);

    // Deleted after a confirmation that says its runs go with it.
    await page.goto(`${site.baseUrl}/admin/automations/${manual.id}`);
    await page.getByRole('heading', { name: 'tidy by hand', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete automation' });
    await confirm.getByText('its runs and their logs are deleted with it').waitFor();
    await confirm.getByRole('button', { name: 'Delete automation' }).click();
    await page.getByRole('heading', { name: 'Automations', level: 1 }).waitFor();
    await rowOf(page, 'on upload').waitFor();
    expect(await rowOf(page, 'tidy by hand').count()).toBe(0);
    await expect(site.admin('GET', `/automations/${manual.id}`, undefined, orbit)).rejects.toThrow(/404/);
    expect(problems).toEqual([]);
    await page.close();
  });

  itOnSqlite('shows a new webhook automation\'s URL once, with a copy button, and masked afterwards', async () => {
    const page = await browser.context.newPage();
    const problems = pageProblems(page);
    await page.goto(`${site.baseUrl}/admin/automations`);
    await signInAs(page, WENDY);
    await page.getByRole('heading', { name: 'Automations', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'New automation' }).click();
    const create = page.getByRole('dialog', { name: 'New automation' });
    await create.getByLabel('Name').fill('on call');
    await create.getByRole('radio', { name: 'Copy files' }).check();
    await create.getByRole('radio', { name: 'When a URL is called' }).check();
    await create.getByRole('textbox', { name: 'Folder' }).fill('inbox');
    await create.getByRole('textbox', { name: 'Destination 1' }).fill('called/');
    await create.getByRole('button', { name: 'Create automation' }).click();
    const once = page.getByRole('dialog', { name: 'Its webhook URL' });
    await once.getByText('it will not be shown again').waitFor();
    const url = await once.getByTestId('webhook-url').textContent();
    expect(url).toMatch(/\/api\/rest\/v1\/automations\/webhook\/[^/]+\/[^*]+$/);
    await once.getByRole('button', { name: 'Copy' }).waitFor();
    await once.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('heading', { name: 'on call', level: 1 }).waitFor();
    await page.getByRole('row', { name: /^Webhook URL / }).getByText('********').waitFor();
    expect(await page.getByText(url ?? '', { exact: true }).count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a user uploads over WebDAV into inbox/, the automation made in the console copies it to archive/<year>/, and its run shows success', async () => {
    const [made] = (await site.admin('GET', '/automations', undefined, orbit)).filter((a: { name: string }) => a.name === COPY_NAME);
    expect(made).toBeDefined();
    const upload = await fetch(`${site.baseUrl}/dav/inbox/report.txt`, {
      method: 'PUT',
      headers: { Authorization: `Basic ${Buffer.from(`${WENDY.username}:${WENDY.password}`).toString('base64')}` },
      body: 'quarterly numbers',
    });
    expect(upload.status).toBe(201);
    const year = new Date().getUTCFullYear();
    const page = await browser.context.newPage();
    const problems = pageProblems(page);
    await page.goto(`${site.baseUrl}/admin/automations/${made.id}`);
    await signInAs(page, WENDY);
    await page.getByRole('heading', { name: COPY_NAME, level: 1 }).waitFor();
    const success = page.getByRole('table', { name: 'Runs' }).getByText('success', { exact: true });
    // The server's job runner takes the run at its next poll (every 5 s): read the runs again until it shows.
    await expect.poll(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      return success.count();
    }, { timeout: 20_000 }).toBeGreaterThan(0);
    const copied = await site.admin('GET', `/folders/archive/${year}`, undefined, orbit);
    expect(copied.map((entry: { path: string }) => entry.path)).toEqual([`archive/${year}/report.txt`]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
