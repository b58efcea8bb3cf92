import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AutomationRunCause } from '../../src/automations/index.js';
import { newWorkspace } from '../files/files-support.js';
import { testDatabaseTargets } from '../support/databases.js';
import { unique } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * A webhook automation's URL (docs/automations.md#webhook-calls): GET or POST with no credential
 * queues a run carrying the call's parameters; anything else is refused without a run.
 */
describe.each(testDatabaseTargets())('webhook calls [$name]', (target) => {
  let t: TestApp;
  let ws: number;
  beforeAll(async () => {
    t = await startTestApp(target);
    ws = await newWorkspace(t);
  });
  afterAll(() => t.close());

  const asAdmin = () => ({ key: BOOTSTRAP_KEY, workspace: ws });
  /** A webhook automation, and the path of its URL below the server's address. */
  const webhookAutomation = async (fields: Record<string, unknown> = {}): Promise<{ id: number; url: string }> => {
    const made = await t.api.post('/automations', {
      automation: 'copy_file', trigger: 'webhook', path: 'in', destinations: ['out/%u-name'], name: unique('hook'), ...fields,
    }, asAdmin());
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    return { id: made.body.id as number, url: new URL(made.body.webhook_url as string).pathname };
  };
  const call = (url: string, init: RequestInit = {}) => fetch(`${t.baseUrl}${url}`, init);
  const causesOf = async (id: number): Promise<AutomationRunCause[]> => {
    const rows = await t.database.db.selectFrom('automation_runs').select('cause').where('automation_id', '=', id).orderBy('id').execute();
    return rows.map((row) => JSON.parse(row.cause) as AutomationRunCause);
  };
  const expectRefused = async (response: Response, status: number, type: string) => {
    const body = await response.json() as { type: string; 'http-code': number };
    expect([response.status, body.type, body['http-code']]).toEqual([status, type, status]);
  };

  it('queues a run with the query\'s parameters on a GET, and answers its id; the run is listed, its job queued', async () => {
    const { id, url } = await webhookAutomation();
    const response = await call(`${url}?name=report.csv&batch=7`);
    expect(response.status).toBe(200);
    const body = await response.json() as { automation_run_id: number };
    expect(body).toEqual({ automation_run_id: expect.any(Number) });
    const runs = (await t.api.get(`/automation_runs?automation_id=${id}`, asAdmin())).body as { id: number; status: string }[];
    expect(runs.map((run) => [run.id, run.status])).toEqual([[body.automation_run_id, 'queued']]);
    expect(await causesOf(id)).toEqual([{ kind: 'webhook', params: { name: 'report.csv', batch: '7' } }]);
    const jobs = (await t.database.db.selectFrom('jobs').selectAll().where('kind', '=', 'automation_run').execute())
      .filter((job) => (JSON.parse(job.payload) as { runId: number }).runId === body.automation_run_id);
    expect(jobs.map((job) => job.status)).toEqual(['queued']);
  });

  it('takes a POST\'s JSON or form fields, the body\'s over the query\'s, and a POST with no body', async () => {
    const { id, url } = await webhookAutomation();
    const json = await call(`${url}?name=from-query&q=1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'from-body' }) });
    expect(json.status).toBe(200);
    const form = await call(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=a+b&x=%2F' });
    expect(form.status).toBe(200);
    expect((await call(url, { method: 'POST' })).status).toBe(200);
    expect(await causesOf(id)).toEqual([
      { kind: 'webhook', params: { name: 'from-body', q: '1' } },
      { kind: 'webhook', params: { name: 'a b', x: '/' } },
      { kind: 'webhook', params: {} },
    ]);
  });

  it('answers the same 404 for a wrong secret, an unknown id, a disabled automation or one no longer a webhook, and queues nothing', async () => {
    const { id, url } = await webhookAutomation();
    const [webhookId, secret] = url.split('/').slice(-2);
    const wrongSecret = `${secret?.slice(0, -1)}${secret?.endsWith('A') ? 'B' : 'A'}`;
    for (const path of [
      `/api/rest/v1/automations/webhook/${webhookId}/${wrongSecret}`,
      `/api/rest/v1/automations/webhook/${webhookId}/********`,
      `/api/rest/v1/automations/webhook/unknown-id/${secret}`,
      `/api/rest/v1/automations/webhook/${webhookId}/${'x'.repeat(90)}`,
    ]) {
      await expectRefused(await call(path), 404, 'not-found');
      await expectRefused(await call(path, { method: 'POST' }), 404, 'not-found');
    }
    expect((await t.api.patch(`/automations/${id}`, { disabled: true }, asAdmin())).status).toBe(200);
    await expectRefused(await call(url), 404, 'not-found');
    expect((await t.api.patch(`/automations/${id}`, { disabled: false, trigger: 'manual' }, asAdmin())).status).toBe(200);
    await expectRefused(await call(url), 404, 'not-found');
    expect(await causesOf(id)).toEqual([]);
  });

  it('refuses parameters over the bounds, or not single text values, with 400 and no run', async () => {
    const { id, url } = await webhookAutomation();
    await expectRefused(await call(`${url}?name=${'n'.repeat(191)}`), 400, 'bad-request/request-params-invalid');
    const many = Array.from({ length: 4 }, (_, i) => `p${i}=${'v'.repeat(150)}`).join('&');
    await expectRefused(await call(`${url}?${many}`), 400, 'bad-request/request-params-invalid');
    await expectRefused(await call(`${url}?${'k'.repeat(191)}=1`), 400, 'bad-request/request-params-invalid');
    await expectRefused(await call(`${url}?a[]=1&a[]=2`), 400, 'bad-request/request-params-invalid');
    await expectRefused(await call(`${url}?filter[a]=1`), 400, 'bad-request/request-params-invalid');
    await expectRefused(await call(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":{"b":1}}' }), 400, 'bad-request/request-params-invalid');
    await expectRefused(await call(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":' }), 400, 'bad-request/invalid-body');
    // Junk never makes a 500.
    const plain = await call(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' });
    expect(plain.status).toBeGreaterThanOrEqual(400);
    expect(plain.status).toBeLessThan(500);
    const long = await call(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `a=${'x'.repeat(64 * 1024)}` });
    await expectRefused(long, 400, 'bad-request/request-params-invalid');
    const huge = await call(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `a=${'x'.repeat(2 * 1024 * 1024)}` });
    await expectRefused(huge, 400, 'bad-request/request-body-too-large');
    expect(await causesOf(id)).toEqual([]);
  });
});
