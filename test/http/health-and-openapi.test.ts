import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

describe.each(testDatabaseTargets())('health and OpenAPI [$name]', (target) => {
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp(target); });
  afterAll(() => t.close());

  it('reports the database as reachable on GET /health, without a credential', async () => {
    const response = await t.api.get('/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok', database: 'reachable', dialect: t.database.dialect });
  });

  it('serves an OpenAPI 3 document generated from the route schemas', async () => {
    for (const path of ['/api/rest/v1/openapi.json', '/api/rest/v1/openapi']) {
      const response = await t.api.get(path);
      expect(response.status, path).toBe(200);
      expect(response.body.openapi).toMatch(/^3\./);
      expect(response.body.paths).toHaveProperty('/api/rest/v1/workspaces');
      const list = response.body.paths['/api/rest/v1/workspaces'].get;
      expect(list.responses['200'].content['application/json'].schema.type).toBe('array');
      expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['cursor', 'per_page']));
    }
  });
});

describe.each(testDatabaseTargets())('health when the database is gone [$name]', (target) => {
  it('reports the database as unreachable with 503', async () => {
    const t = await startTestApp(target);
    try {
      await t.database.close();
      const response = await t.api.get('/health');
      expect(response.status).toBe(503);
      expect(response.body).toEqual({ status: 'unavailable', database: 'unreachable', dialect: t.database.dialect });
    } finally {
      // Also drops its PostgreSQL schema and removes its data directory.
      await t.close();
    }
  });
});
