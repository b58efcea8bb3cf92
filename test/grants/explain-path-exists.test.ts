import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { createUser, createWorkspace } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { explainSelf, grantAsSite, memberOf } from './grants-support.js';

describe.each(testDatabaseTargets())('GET /permissions/explain: path_exists [$name]', (target) => {
  let t: TestApp;
  let ws: number;
  let otherWs: number;
  beforeAll(async () => {
    t = await startTestApp(target);
    ws = await createWorkspace(t.database.db);
    otherWs = await createWorkspace(t.database.db);
    for (const folder of ['Plans', 'Plans/Sub', 'Secret', 'Secret/Inner', 'Dept', 'Dept/Sub']) {
      const created = await t.api.post(`/folders/${folder}`, {}, { key: BOOTSTRAP_KEY, workspace: ws });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
  });
  afterAll(() => t.close());

  const explain = async (query: string, options: { key?: string; workspace?: number } = {}) => {
    const response = await t.api.get(`/permissions/explain?${query}`, { key: BOOTSTRAP_KEY, workspace: ws, ...options });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body;
  };

  it('tells an administrator whether the path exists in the request\'s Workspace', async () => {
    expect(await explain('path=Plans/Sub')).toMatchObject({ path: 'Plans/Sub', type: 'directory', path_exists: true });
    expect(await explain('path=Plans/Missing')).toMatchObject({ path: 'Plans/Missing', type: 'file', path_exists: false });
    expect(await explain('path=')).toMatchObject({ type: 'directory', path_exists: true });
    // The same path in another Workspace is another path.
    expect(await explain('path=Plans/Sub', { workspace: otherWs })).toMatchObject({ path_exists: false, type: 'file' });
  });

  it('tells a user what exists where it may look', async () => {
    const member = await memberOf(t, { workspaceId: ws });
    await grantAsSite(t, { path: 'Plans', user_id: member.id, permission: 'readonly' }, ws);
    expect(await explainSelf(t, member, 'Plans', ws)).toMatchObject({ path_exists: true, type: 'directory', capabilities: ['list', 'read'] });
    expect(await explainSelf(t, member, 'Plans/Sub', ws)).toMatchObject({ path_exists: true, type: 'directory' });
    expect(await explainSelf(t, member, 'Plans/Missing.pdf', ws)).toMatchObject({ path_exists: false, type: 'file', capabilities: ['list', 'read'] });
  });

  it('answers a path the caller may not see exactly as one that does not exist', async () => {
    const member = await memberOf(t, { workspaceId: ws });
    await grantAsSite(t, { path: 'Plans', user_id: member.id, permission: 'readonly' }, ws);
    for (const [hidden, absent] of [['Secret', 'Nowhere'], ['Secret/Inner', 'Secret/Absent'], ['Dept/Sub', 'Dept/None']] as const) {
      const ofHidden = await explainSelf(t, member, hidden, ws);
      const ofAbsent = await explainSelf(t, member, absent, ws);
      expect(ofHidden).toMatchObject({ path_exists: false, type: 'file' });
      expect({ ...ofHidden, path: null }).toEqual({ ...ofAbsent, path: null });
    }
  });

  it('lets a Folder Admin explaining a colleague see what exists in its subtree', async () => {
    const folderAdmin = await memberOf(t, { workspaceId: ws });
    const colleague = await createUser(t.database.db, { workspaceId: ws });
    await grantAsSite(t, { path: 'Dept', user_id: folderAdmin.id, permission: 'admin' }, ws);
    expect(await explain(`path=Dept/Sub&user_id=${colleague.id}`, { key: folderAdmin.key })).toMatchObject({ path_exists: true, type: 'directory', capabilities: [] });
    expect(await explain(`path=Dept/Gone&user_id=${colleague.id}`, { key: folderAdmin.key })).toMatchObject({ path_exists: false, type: 'file' });
  });
});
