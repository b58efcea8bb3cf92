import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

describe.each(testDatabaseTargets())('request ids [$name]', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(target, {
      extend(app) {
        app.get('/request-id-test/crash', async () => {
          throw new Error('boom at a secret place');
        });
      },
    });
  });
  afterAll(() => t.close());

  const get = (path: string, requestId?: string) =>
    fetch(`${t.baseUrl}${path}`, { headers: { 'X-ServiceAPI-Key': BOOTSTRAP_KEY, ...(requestId === undefined ? {} : { 'X-Request-Id': requestId }) } });

  it('keeps a sane incoming X-Request-Id and returns it', async () => {
    for (const id of ['abc-123', 'f3b1c2d4e5f60718293a4b5c6d7e8f90', 'lb.node-7:req/42@edge=1', 'x'.repeat(128)]) {
      const response = await get('/health', id);
      expect(response.status).toBe(200);
      expect(response.headers.get('x-request-id')).toBe(id);
    }
  });

  it('replaces a missing, over-long or odd X-Request-Id with a fresh one, different each time', async () => {
    const seen = new Set<string>();
    for (const id of [undefined, '', 'x'.repeat(129), 'has space', 'quote"d', 'semi;colon', '<script>', 'ünicode']) {
      const response = await get('/health', id);
      const returned = response.headers.get('x-request-id') as string;
      expect(returned).toMatch(/^[0-9a-f]{32}$/);
      expect(returned).not.toBe(id);
      seen.add(returned);
    }
    expect(seen.size).toBe(8);
  });

  it('puts the request id in the body of a 4xx and of a 500, as `instance`', async () => {
    const notFound = await get('/api/rest/v1/no-such-thing', 'client-chosen-404');
    expect(notFound.status).toBe(404);
    expect(await notFound.json()).toMatchObject({ instance: 'client-chosen-404', 'http-code': 404 });

    const crash = await get('/request-id-test/crash', 'client-chosen-500');
    expect(crash.status).toBe(500);
    expect(crash.headers.get('x-request-id')).toBe('client-chosen-500');
    const body = await crash.json();
    expect(body).toEqual({ error: 'An internal error occurred.', 'http-code': 500, instance: 'client-chosen-500', title: 'Internal Server Error', type: 'internal-server-error' });

    const generated = await get('/request-id-test/crash');
    expect(((await generated.json()) as { instance: string }).instance).toBe(generated.headers.get('x-request-id'));
  });
});
