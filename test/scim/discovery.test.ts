import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { ATRIUM_USER, expectScimError, ScimClient, USER_SCHEMA } from './scim-client.js';

describe.each(testDatabaseTargets())('SCIM discovery [$name]', (target) => {
  let t: TestApp;
  let scim: ScimClient;
  beforeAll(async () => {
    t = await startTestApp(target);
    scim = new ScimClient(t.baseUrl, BOOTSTRAP_KEY);
  });
  afterAll(() => t.close());

  it('declares what is supported: PATCH, filters, sorting, ETags; not bulk', async () => {
    const config = await scim.get('/ServiceProviderConfig');
    expect(config.status).toBe(200);
    expect(config.headers.get('content-type')).toMatch(/^application\/scim\+json/);
    expect(config.body).toMatchObject({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
      patch: { supported: true }, bulk: { supported: false }, filter: { supported: true, maxResults: 1000 }, sort: { supported: true }, etag: { supported: true },
      authenticationSchemes: [{ type: 'oauthbearertoken' }],
    });
  });

  it('lists the User and Group resource types and their schemas, to anyone', async () => {
    const anonymous = scim.as('');
    const types = await fetch(`${t.baseUrl}/scim/v2/ResourceTypes`);
    expect(types.status).toBe(200);
    const body = (await types.json()) as { Resources: { id: string }[] };
    expect(body.Resources.map((r) => r.id)).toEqual(['User', 'Group']);
    expect(body.Resources[0]).toMatchObject({ endpoint: '/Users', schema: USER_SCHEMA, schemaExtensions: [{ schema: ATRIUM_USER }] });
    expect((await anonymous.get('/ResourceTypes/Group')).body).toMatchObject({ endpoint: '/Groups' });
    expectScimError(await anonymous.get('/ResourceTypes/Printer'), 404);
    const schemas = await anonymous.get('/Schemas');
    expect(schemas.body.totalResults).toBe(4);
    const userSchema = await anonymous.get(`/Schemas/${USER_SCHEMA}`);
    expect(userSchema.body.attributes.map((a: { name: string }) => a.name)).toContain('userName');
    expectScimError(await anonymous.get('/Schemas/urn:nothing'), 404);
  });

  it('answers an unknown SCIM endpoint and Bulk with SCIM 404s, and keeps SCIM out of the REST API document', async () => {
    expectScimError(await scim.get('/Bulk'), 404);
    expectScimError(await scim.post('/Bulk', {}), 404);
    const paths = Object.keys(t.app.swagger().paths ?? {});
    expect(paths.some((p) => p.includes('/users'))).toBe(true);
    expect(paths.some((p) => p.toLowerCase().includes('scim'))).toBe(false);
  });
});
