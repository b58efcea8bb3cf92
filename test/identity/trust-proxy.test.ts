import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { unique } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

const failLoginFrom = (t: TestApp, forwardedFor: string) =>
  t.api.post('/sessions', { username: unique('nobody'), password: 'wrong password!' }, { headers: { 'X-Forwarded-For': forwardedFor } });

const recordedAddresses = async (t: TestApp) =>
  (await t.database.db.selectFrom('login_failures').select('client_ip').execute()).map((row) => row.client_ip);

/** The addresses History shows for failed sign-ins, through its own API. */
const historyAddresses = async (t: TestApp) =>
  ((await t.api.get('/history/login', { key: BOOTSTRAP_KEY })).body as { action: string; ip: string }[]).filter((r) => r.action === 'failedlogin').map((r) => r.ip);

describe.each(testDatabaseTargets())('client address behind a load balancer [$name]', (target) => {
  let direct: TestApp;
  let proxied: TestApp;
  beforeAll(async () => {
    direct = await startTestApp(target);
    proxied = await startTestApp(target, { trustProxy: ['127.0.0.1'] });
  });
  afterAll(async () => {
    await direct.close();
    await proxied.close();
  });

  it('ignores X-Forwarded-For unless the proxy is trusted, so a client cannot pick its own address', async () => {
    expect((await failLoginFrom(direct, '203.0.113.9')).status).toBe(401);
    expect(await recordedAddresses(direct)).toEqual(['127.0.0.1']);
    expect(await historyAddresses(direct)).toEqual(['127.0.0.1']);
  });

  it("counts the forwarded client's address when the request comes from a trusted proxy", async () => {
    expect((await failLoginFrom(proxied, '203.0.113.9')).status).toBe(401);
    expect(await recordedAddresses(proxied)).toEqual(['203.0.113.9']);
    expect(await historyAddresses(proxied)).toEqual(['203.0.113.9']);
  });
});
