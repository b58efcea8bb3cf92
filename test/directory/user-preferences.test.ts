import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { createApiKey, createSession, createUser, createWorkspace } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The Workspace a person last chose (GET and PATCH /user_preferences): kept on the server, so a
 * new session (another tab or browser) finds it; only a Workspace they may work in is taken, and
 * one they may no longer work in reads as none.
 */
describe.each(testDatabaseTargets())('user preferences [$name]', (target) => {
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp(target); });
  afterAll(() => t.close());

  const db = () => t.database.db;
  const session = async (userId: number) => ({ session: await createSession(db(), userId, t.clock.now()) });

  it('a Workspace 0 user with a grant in a Custom Workspace chooses it, and a new session finds it; null forgets it', async () => {
    const n = await createWorkspace(db());
    const user = await createUser(db());
    await t.api.post('/folders/Shared', {}, { key: BOOTSTRAP_KEY, workspace: n });
    expect((await t.api.post('/permissions', { path: 'Shared', user_id: user.id, permission: 'readonly' }, { key: BOOTSTRAP_KEY, workspace: n })).status).toBe(201);

    const first = await session(user.id);
    expect((await t.api.get('/user_preferences', first)).body).toEqual({ last_workspace_id: null });
    const chosen = await t.api.patch('/user_preferences', { last_workspace_id: n }, first);
    expect(chosen.status).toBe(200);
    expect(chosen.body).toEqual({ last_workspace_id: n });
    // Another browser: another session of the same user.
    expect((await t.api.get('/user_preferences', await session(user.id))).body).toEqual({ last_workspace_id: n });

    // Once the grant is gone, the Workspace is no longer theirs to see: the choice reads as none.
    const grants = (await t.api.get(`/permissions?user_id=${user.id}`, { key: BOOTSTRAP_KEY, workspace: n })).body as { id: number }[];
    for (const grant of grants) await t.api.delete(`/permissions/${grant.id}`, { key: BOOTSTRAP_KEY, workspace: n });
    expect((await t.api.get('/user_preferences', first)).body).toEqual({ last_workspace_id: null });

    expect((await t.api.put('/user_preferences', { last_workspace_id: 0 }, first)).body).toEqual({ last_workspace_id: 0 });
    expect((await t.api.patch('/user_preferences', { last_workspace_id: null }, first)).body).toEqual({ last_workspace_id: null });
    // An empty change changes nothing.
    expect((await t.api.patch('/user_preferences', {}, first)).body).toEqual({ last_workspace_id: null });
  });

  it('refuses a Workspace the caller may not work in as not found, and changes nothing', async () => {
    const n = await createWorkspace(db());
    const other = await createWorkspace(db());
    const plain = await createUser(db());
    const custom = await createUser(db(), { workspaceId: n });
    const asPlain = await session(plain.id);
    const asCustom = await session(custom.id);
    await t.api.patch('/user_preferences', { last_workspace_id: 0 }, asPlain);

    for (const [as, workspace] of [[asPlain, other], [asPlain, 999_999], [asCustom, 0], [asCustom, other]] as const) {
      const refused = await t.api.patch('/user_preferences', { last_workspace_id: workspace }, as);
      expect(refused.status, `workspace ${workspace}`).toBe(404);
      expect(refused.body.type).toBe('not-found/workspace-not-found');
    }
    expect((await t.api.get('/user_preferences', asPlain)).body).toEqual({ last_workspace_id: 0 });
    // A Custom Workspace user may choose its own, the only one it works in.
    expect((await t.api.patch('/user_preferences', { last_workspace_id: n }, asCustom)).body).toEqual({ last_workspace_id: n });
  });

  it('a confined credential chooses its home only, whatever its user could reach with another', async () => {
    const n = await createWorkspace(db());
    // A Site Administrator of Workspace 0, with a key made in Workspace n: confined to n.
    const admin = await createUser(db(), { siteAdmin: true });
    const keyInN = { key: await createApiKey(db(), { userId: admin.id, workspaceId: n }) };
    const refusedZero = await t.api.patch('/user_preferences', { last_workspace_id: 0 }, keyInN);
    expect(refusedZero.status).toBe(404);
    expect(refusedZero.body.type).toBe('not-found/workspace-not-found');
    expect((await t.api.patch('/user_preferences', { last_workspace_id: n }, keyInN)).body).toEqual({ last_workspace_id: n });
    // Its session, not confined, may choose Workspace 0; the key then reads that choice as none.
    const asAdmin = await session(admin.id);
    expect((await t.api.patch('/user_preferences', { last_workspace_id: 0 }, asAdmin)).body).toEqual({ last_workspace_id: 0 });
    expect((await t.api.get('/user_preferences', keyInN)).body).toEqual({ last_workspace_id: null });
  });

  it('a Site Administrator\'s choice of a Workspace deleted since reads as none', async () => {
    const admin = await createUser(db(), { siteAdmin: true });
    const empty = await createWorkspace(db());
    const asAdmin = await session(admin.id);
    expect((await t.api.patch('/user_preferences', { last_workspace_id: empty }, asAdmin)).body).toEqual({ last_workspace_id: empty });
    expect((await t.api.delete(`/workspaces/${empty}`, { key: BOOTSTRAP_KEY })).status).toBe(204);
    expect((await t.api.get('/user_preferences', asAdmin)).body).toEqual({ last_workspace_id: null });
  });

  it('answers bad input with the contract\'s errors, and a site-wide key has no preferences', async () => {
    const as = await session((await createUser(db())).id);
    for (const value of ['one', -1, 1.5, true]) {
      const refused = await t.api.patch('/user_preferences', { last_workspace_id: value }, as);
      expect(refused.status, JSON.stringify(value)).toBe(400);
    }
    const siteWide = await t.api.get('/user_preferences', { key: await createApiKey(db(), { userId: null }) });
    expect(siteWide.status).toBe(404);
    expect(siteWide.body.type).toBe('not-found');
  });
});
