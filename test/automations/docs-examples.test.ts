import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadText, listedPaths, newWorkspace, putFile } from '../files/files-support.js';
import { testDatabaseTargets } from '../support/databases.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** One `http` block of the guide: its request line and JSON body. */
interface ShownRequest {
  method: string;
  target: string;
  body: Record<string, unknown>;
}

/** The `http` blocks of docs/automations.md's Examples, in order. */
async function shownRequests(): Promise<ShownRequest[]> {
  const markdown = await fs.readFile(new URL('../../docs/automations.md', import.meta.url), 'utf8');
  const section = markdown.slice(markdown.indexOf('## Examples'), markdown.indexOf('\n## ', markdown.indexOf('## Examples') + 1));
  return [...section.matchAll(/```http\n(.*?)\n```/gs)].map(([, block]) => {
    const [head = '', body = ''] = (block as string).split('\n\n');
    const line = head.split('\n')[0]!;
    const space = line.indexOf(' ');
    const [method, target] = [line.slice(0, space), line.slice(space + 1)];
    return { method, target, body: JSON.parse(body) as Record<string, unknown> };
  });
}

/**
 * The workflows docs/automations.md opens with, sent as the guide writes them and checked for
 * what the guide says they do: on both databases, on a clock the test moves.
 */
describe.each(testDatabaseTargets())('the automations guide\'s examples [$name]', (target) => {
  let t: TestApp;
  let ws: number;
  let shown: ShownRequest[];
  const as = () => ({ key: BOOTSTRAP_KEY, workspace: ws });
  beforeAll(async () => {
    t = await startTestApp(target);
    ws = await newWorkspace(t);
    shown = await shownRequests();
  });
  afterAll(() => t.close());

  /** Sends the guide's request number `index` (an automation's creation) and answers the automation. */
  const send = async (index: number) => {
    const request = shown[index]!;
    expect([request.method, request.target]).toEqual(['POST', '/api/rest/v1/automations']);
    const response = await t.api.post('/automations', request.body, as());
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body as Record<string, any>;
  };
  const lastRunStatus = async (id: number) => ((await t.api.get(`/automation_runs?automation_id=${id}`, as())).body as { status: string }[]).at(-1)?.status;
  const put = async (path: string, content: string) => expect((await putFile(t, path, content, as())).status).toBe(201);

  it('shows five requests', () => {
    expect(shown.map((request) => request.method)).toEqual(['POST', 'POST', 'POST', 'POST', 'POST']);
  });

  it('a file landing in inbox/ is moved to processing/ and copied to archive/%Y/%m/', async () => {
    const automation = await send(0);
    await put('inbox/order.csv', 'one order');
    await t.core.jobs.runDue();
    expect(await lastRunStatus(automation.id)).toBe('success');
    const now = new Date(t.clock.now());
    const month = `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
    expect(await listedPaths(t, 'inbox', as())).toEqual([]);
    expect(await downloadText(t, 'processing/order.csv', as())).toBe('one order');
    expect(await downloadText(t, `archive/${month}/order.csv`, as())).toBe('one order');
  });

  it('every night at 02:00 in Paris, what is older than 30 days in exports/ is deleted', async () => {
    await put('exports/2025/old.csv', 'old');
    t.clock.advance(31 * DAY);
    await put('exports/new.csv', 'new');
    // From midnight UTC, 01:00 in Paris in winter: the due time is an hour away.
    t.clock.advance(Math.ceil(t.clock.now() / DAY) * DAY - t.clock.now());
    const automation = await send(1);
    expect(automation.human_readable_schedule).toBe('Every day at 02:00, Europe/Paris');
    t.clock.advance(HOUR - 1);
    await t.core.jobs.runDue();
    expect(await lastRunStatus(automation.id)).toBeUndefined();
    t.clock.advance(1);
    await t.core.jobs.runDue();
    expect(await lastRunStatus(automation.id)).toBe('success');
    expect(await listedPaths(t, 'exports', as())).toEqual(['exports/2025', 'exports/new.csv']);
    expect(await listedPaths(t, 'exports/2025', as())).toEqual([]);
  });

  it('every Monday, this week\'s folders are created', async () => {
    const automation = await send(2);
    // To the next Monday, 06:00 UTC (1970-01-05 was a Monday).
    const sinceMonday = (t.clock.now() - 4 * DAY) % (7 * DAY);
    t.clock.advance(7 * DAY - sinceMonday + 6 * HOUR);
    await t.core.jobs.runDue();
    expect(await lastRunStatus(automation.id)).toBe('success');
    const monday = new Date(t.clock.now()).toISOString().slice(0, 10);
    expect(await listedPaths(t, `weeks/${monday}`, as())).toEqual([`weeks/${monday}/done`, `weeks/${monday}/incoming`]);
  });

  it('a call of the webhook URL moves the file it names from outgoing/ to sent/', async () => {
    await put('outgoing/invoice-1234.pdf', 'the invoice');
    await put('outgoing/invoice-9999.pdf', 'another');
    const automation = await send(3);
    const call = shown[4]!;
    expect(call.target).toBe('<the webhook_url of the answer>');
    const answer = await fetch(automation.webhook_url as string, { method: call.method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(call.body) });
    expect(answer.status).toBe(200);
    await t.core.jobs.runDue();
    expect(await lastRunStatus(automation.id)).toBe('success');
    expect(await listedPaths(t, 'outgoing', as())).toEqual(['outgoing/invoice-9999.pdf']);
    expect(await downloadText(t, 'sent/invoice-1234.pdf', as())).toBe('the invoice');
  });
});
