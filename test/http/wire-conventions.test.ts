import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { createWorkspace } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

describe.each(testDatabaseTargets())('wire conventions [$name]', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(target, {
      brands: ['Service', 'Files'],
      extend(app) {
        app.get('/api/rest/v1/test-failure', { config: { public: true } }, async () => {
          throw new Error('select secret_hash from api_keys where lookup = $1 -- simulated failure');
        });
        app.post('/api/rest/v1/test-echo', {
          config: { public: true },
          schema: {
            body: {
              type: 'object',
              required: ['name'],
              properties: { name: { type: 'string' }, count: { type: 'integer' }, filter: { type: 'object', properties: { size: { type: 'integer' } } } },
            },
          },
        }, async (request) => request.body);
      },
    });
  });
  afterAll(() => t.close());

  it('serves resources under /api/rest/v1 with an optional .json suffix', async () => {
    const plain = await t.api.get('/workspaces', { key: BOOTSTRAP_KEY });
    const suffixed = await t.api.get('/workspaces.json', { key: BOOTSTRAP_KEY });
    expect(plain.status).toBe(200);
    expect(suffixed.status).toBe(200);
    expect(suffixed.body).toEqual(plain.body);
    expect(plain.headers.get('content-type')).toMatch(/^application\/json/);
    expect(plain.body).toContainEqual(expect.objectContaining({ id: 0 }));
  });

  it('accepts every configured header brand for the API key', async () => {
    const service = await t.api.get('/workspaces', { headers: { 'X-ServiceAPI-Key': BOOTSTRAP_KEY } });
    const files = await t.api.get('/workspaces', { headers: { 'X-FilesAPI-Key': BOOTSTRAP_KEY } });
    const other = await t.api.get('/workspaces', { headers: { 'X-OtherAPI-Key': BOOTSTRAP_KEY } });
    expect(service.status).toBe(200);
    expect(files.status).toBe(200);
    expect(other.status).toBe(401);
  });

  it('renders errors as the contract body with error-class headers for every brand and a request id', async () => {
    const response = await t.api.get('/workspaces', { key: 'not-a-key' });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({
      error: expect.any(String),
      'http-code': 401,
      instance: response.headers.get('x-request-id'),
      title: 'Invalid Credentials',
      type: 'not-authenticated/invalid-credentials',
    });
    expect(response.headers.get('x-service-error-class')).toBe('not-authenticated/invalid-credentials');
    expect(response.headers.get('x-files-error-class')).toBe('not-authenticated/invalid-credentials');
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('answers unknown routes with not-found', async () => {
    const response = await t.api.get('/no-such-resource', { key: BOOTSTRAP_KEY });
    expect(response.status).toBe(404);
    expect(response.body.type).toBe('not-found');
    expect(response.body.title).toBe('Not Found');
    expect(response.headers.get('x-service-error-class')).toBe('not-found');
  });

  it('answers a malformed JSON body with bad-request/invalid-body', async () => {
    const response = await t.api.call('POST', '/test-echo', { rawBody: '{"name": ' });
    expect(response.status).toBe(400);
    expect(response.body.type).toBe('bad-request/invalid-body');
  });

  it('answers a JSON body that is not an object with bad-request/invalid-body', async () => {
    for (const rawBody of ['[1,2]', '"text"', '42', 'null']) {
      const response = await t.api.call('POST', '/test-echo', { rawBody });
      expect(response.status, rawBody).toBe(400);
      expect(response.body.type, rawBody).toBe('bad-request/invalid-body');
    }
  });

  it('renders validation failures as bad-request errors with model_errors, never the framework body', async () => {
    const missing = await t.api.post('/test-echo', { count: 1 });
    expect(missing.status).toBe(400);
    expect(missing.body.type).toBe('bad-request/request-params-required');
    expect(missing.body.model_errors).toEqual({ name: ['is required'] });
    expect(missing.body['model-errors']).toEqual({ name: ['is required'] });

    const wrongType = await t.api.post('/test-echo', { name: 'x', filter: { size: 'big' } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.type).toBe('bad-request/request-params-invalid');
    expect(Object.keys(wrongType.body.model_errors)).toEqual(['filter[size]']);
    expect(wrongType.body).not.toHaveProperty('statusCode');
  });

  it('refuses a body field of the wrong type instead of converting it, while query strings are converted', async () => {
    for (const body of [{ name: 5 }, { name: 'x', count: '3' }, { name: true }]) {
      const response = await t.api.post('/test-echo', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.type).toBe('bad-request/request-params-invalid');
    }
    const query = await t.api.get('/workspaces?per_page=1', { key: BOOTSTRAP_KEY });
    expect(query.status).toBe(200);
  });

  it('ignores unknown body fields and drops prototype-poisoning keys', async () => {
    const response = await t.api.call('POST', '/test-echo', { rawBody: '{"name":"a","unknown":1,"__proto__":{"polluted":true}}' });
    expect(response.status).toBe(200);
    expect(response.body.name).toBe('a');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses a non-JSON content type with bad-request/unsupported-media-type', async () => {
    const response = await t.api.call('POST', '/test-echo', { rawBody: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(response.status).toBe(400);
    expect(response.body.type).toBe('bad-request/unsupported-media-type');
  });

  it('answers an unexpected exception with a generic 500 that carries no stack or SQL', async () => {
    const response = await t.api.get('/test-failure');
    expect(response.status).toBe(500);
    expect(response.body).toEqual({
      error: 'An internal error occurred.',
      'http-code': 500,
      instance: expect.any(String),
      title: 'Internal Server Error',
      type: 'internal-server-error',
    });
    expect(response.text).not.toMatch(/select|secret|at .*\.ts/i);
  });

  it('paginates with a cursor header that is present only when another page exists', async () => {
    const created = [await createWorkspace(t.database.db), await createWorkspace(t.database.db)];
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor === null ? '?per_page=1&page=7' : `?per_page=1&cursor=${encodeURIComponent(cursor)}`;
      const response = await t.api.get(`/workspaces${query}`, { key: BOOTSTRAP_KEY });
      expect(response.status).toBe(200);
      expect(response.body).toHaveLength(1);
      seen.push(response.body[0].id);
      cursor = response.headers.get('x-service-cursor');
      expect(response.headers.get('x-files-cursor')).toBe(cursor);
      expect(response.headers.get('x-service-cursor-next')).toBe(cursor);
      pages += 1;
    } while (cursor !== null && pages < 10);
    expect(seen).toEqual([0, ...created]);
    expect(cursor).toBeNull();
  });

  it('refuses a malformed or foreign cursor with bad-request/invalid-cursor', async () => {
    const foreign = Buffer.from(JSON.stringify(['users', 3])).toString('base64url');
    for (const cursor of ['garbage!', foreign, Buffer.from('[1,2,3]').toString('base64url')]) {
      const response = await t.api.get(`/workspaces?cursor=${encodeURIComponent(cursor)}`, { key: BOOTSTRAP_KEY });
      expect(response.status, cursor).toBe(400);
      expect(response.body.type, cursor).toBe('bad-request/invalid-cursor');
    }
  });

  it('refuses per_page outside 1..10000 with bad-request/request-params-invalid', async () => {
    for (const perPage of ['0', '10001', 'many']) {
      const response = await t.api.get(`/workspaces?per_page=${perPage}`, { key: BOOTSTRAP_KEY });
      expect(response.status, perPage).toBe(400);
      expect(response.body.type, perPage).toBe('bad-request/request-params-invalid');
    }
  });

  it('sends X-Request-Id on successful responses too', async () => {
    const response = await t.api.get('/workspaces', { key: BOOTSTRAP_KEY });
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f]{32}$/);
  });
});
