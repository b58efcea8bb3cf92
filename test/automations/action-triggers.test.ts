import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActionTriggers, type AutomationRunCause } from '../../src/automations/index.js';
import type { HistoryEvent } from '../../src/history/index.js';
import type { Origin } from '../../src/lib/origin.js';
import { downloadText, enc, newWorkspace, putFile, seed } from '../files/files-support.js';
import { testDatabaseTargets } from '../support/databases.js';
import { createApiKey, createUser, unique } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { rawRequest as davRequest } from '../webdav/dav-client.js';

/**
 * The `action` trigger (docs/automations.md#action-triggers): a file action through any door, on
 * a path an enabled `action` automation watches, queues its run in the change's transaction.
 */
describe.each(testDatabaseTargets())('action triggers [$name]', (target) => {
  let t: TestApp;
  let ws: number;
  let other: number;
  /** A Workspace Administrator's key in ws, and one in `other`: their files are their Workspace's. */
  let inWs: { key: string };
  let inOther: { key: string };
  const adminKeyOf = async (workspaceId: number) => {
    const admin = await createUser(t.database.db, { workspaceId, workspaceAdmin: true });
    return createApiKey(t.database.db, { userId: admin.id, workspaceId });
  };
  beforeAll(async () => {
    t = await startTestApp(target);
    ws = await newWorkspace(t);
    other = await newWorkspace(t);
    inWs = { key: await adminKeyOf(ws) };
    inOther = { key: await adminKeyOf(other) };
  });
  afterAll(() => t.close());

  /** An `action` automation of `workspace` (ws by default), made through the API. */
  const watching = async (fields: Record<string, unknown>, workspace = ws): Promise<number> => {
    const made = await t.api.post('/automations', {
      automation: 'copy_file', trigger: 'action', trigger_actions: ['create'], destinations: ['copies/'], name: unique('watch'), ...fields,
    }, { key: BOOTSTRAP_KEY, workspace });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    return made.body.id as number;
  };
  const runsOf = async (id: number, workspace = ws) => {
    const listed = await t.api.get(`/automation_runs?automation_id=${id}`, { key: BOOTSTRAP_KEY, workspace });
    expect(listed.status).toBe(200);
    return listed.body as { id: number; status: string; workspace_id: number }[];
  };
  const causesOf = async (id: number): Promise<AutomationRunCause[]> => {
    const rows = await t.database.db.selectFrom('automation_runs').select('cause').where('automation_id', '=', id).orderBy('id').execute();
    return rows.map((row) => JSON.parse(row.cause) as AutomationRunCause);
  };
  const jobsOf = async (runId: number) => (await t.database.db.selectFrom('jobs').selectAll().where('kind', '=', 'automation_run').execute())
    .filter((job) => (JSON.parse(job.payload) as { runId: number }).runId === runId);

  it('queues a run, and its job, when a file is uploaded over REST into the watched folder', async () => {
    const folder = unique('inbox');
    const id = await watching({ path: folder });
    expect((await putFile(t, `${folder}/a.txt`, 'hello', inWs)).status).toBe(201);
    const runs = await runsOf(id);
    expect(runs.map((run) => [run.status, run.workspace_id])).toEqual([['queued', ws]]);
    expect((await jobsOf(runs[0]?.id as number)).map((job) => job.status)).toEqual(['queued']);
    expect(await causesOf(id)).toEqual([{ kind: 'action', action: 'create', path: `_/Workspaces/${ws}/${folder}/a.txt`, depth: 0 }]);
  });

  it('queues a run when the file comes over WebDAV', async () => {
    const folder = unique('dropbox');
    const id = await watching({ path: folder, source: '*.csv' });
    expect((await davRequest(t.baseUrl, { method: 'MKCOL', path: `/dav/${folder}`, auth: [inWs.key, 'x'] })).status).toBe(201);
    const put = await davRequest(t.baseUrl, { method: 'PUT', path: `/dav/${folder}/b.csv`, body: 'x,y', auth: [inWs.key, 'x'] });
    expect(put.status).toBe(201);
    expect(await causesOf(id)).toEqual([{ kind: 'action', action: 'create', path: `_/Workspaces/${ws}/${folder}/b.csv`, depth: 0 }]);
  });

  it('queues nothing for a file outside the folder, an excluded name, a disabled automation, an action not listed or another Workspace', async () => {
    const folder = unique('inbox');
    const watcher = await watching({ path: folder, exclude_pattern: '*.tmp' });
    const disabled = await watching({ path: folder, disabled: true });
    const onUpdate = await watching({ path: folder, trigger_actions: ['update'] });
    expect((await putFile(t, `elsewhere/${folder}/a.txt`, 'x', inWs)).status).toBe(201);
    expect((await putFile(t, `${folder}/deeper/a.txt`, 'x', inWs)).status).toBe(201);
    expect((await putFile(t, `${folder}/a.tmp`, 'x', inWs)).status).toBe(201);
    // The same folder in another Workspace, and in Workspace 0.
    expect((await putFile(t, `${folder}/a.txt`, 'x', inOther)).status).toBe(201);
    expect((await putFile(t, `${folder}/a.txt`, 'x', { key: BOOTSTRAP_KEY })).status).toBe(201);
    // A folder is not a file: making one triggers nothing.
    expect((await t.api.post(`/folders/${enc(`${folder}/made`)}`, {}, inWs)).status).toBe(201);
    for (const id of [watcher, disabled, onUpdate]) expect(await runsOf(id)).toEqual([]);

    // Once enabled, the disabled one watches: the index follows the change.
    expect((await t.api.patch(`/automations/${disabled}`, { disabled: false }, inWs)).status).toBe(200);
    expect((await putFile(t, `${folder}/b.txt`, 'x', inWs)).status).toBe(201);
    expect((await runsOf(disabled)).map((run) => run.status)).toEqual(['queued']);
    expect((await runsOf(watcher)).map((run) => run.status)).toEqual(['queued']);
    // Deleted, it watches no more.
    expect((await t.api.delete(`/automations/${watcher}`, inWs)).status).toBe(204);
    expect((await putFile(t, `${folder}/c.txt`, 'x', inWs)).status).toBe(201);
    expect(await runsOf(disabled)).toHaveLength(2);
  });

  it('queues `update` on an overwrite, `read` on a download, `move` and `copy` where the file arrives, `destroy` (and archived_delete) on a deletion', async () => {
    const folder = unique('watched');
    const ids = {
      update: await watching({ path: folder, trigger_actions: ['update'] }),
      read: await watching({ path: folder, trigger_actions: ['read'] }),
      move: await watching({ path: folder, trigger_actions: ['move'] }),
      copy: await watching({ path: folder, trigger_actions: ['copy'] }),
      destroy: await watching({ path: folder, trigger_actions: ['archived_delete'] }),
    };
    const site = (path: string) => `_/Workspaces/${ws}/${path}`;
    await seed(t, { [site(`${folder}/f.txt`)]: 'one', [site('outside/m.txt')]: 'm', [site('outside/c.txt')]: 'c' });
    expect((await putFile(t, `${folder}/f.txt`, 'two', inWs)).status).toBe(201);
    expect(await downloadText(t, `${folder}/f.txt`, inWs)).toBe('two');
    const moved = await t.api.post(`/file_actions/move/${enc('outside/m.txt')}`, { destination: `${folder}/m.txt` }, inWs);
    expect(moved.status, JSON.stringify(moved.body)).toBe(201);
    const copied = await t.api.post(`/file_actions/copy/${enc('outside/c.txt')}`, { destination: `${folder}/c.txt` }, inWs);
    expect(copied.status, JSON.stringify(copied.body)).toBe(201);
    // Moving a file out of the folder is a move to where it went, not a deletion here.
    expect((await t.api.post(`/file_actions/move/${enc(`${folder}/m.txt`)}`, { destination: 'outside/back.txt' }, inWs)).status).toBe(201);
    expect((await t.api.delete(`/files/${enc(`${folder}/c.txt`)}`, inWs)).status).toBe(204);

    expect(await causesOf(ids.update)).toEqual([{ kind: 'action', action: 'update', path: site(`${folder}/f.txt`), depth: 0 }]);
    expect(await causesOf(ids.read)).toEqual([{ kind: 'action', action: 'read', path: site(`${folder}/f.txt`), depth: 0 }]);
    expect(await causesOf(ids.move)).toEqual([{ kind: 'action', action: 'move', path: site('outside/m.txt'), destination: site(`${folder}/m.txt`), depth: 0 }]);
    expect(await causesOf(ids.copy)).toEqual([{ kind: 'action', action: 'copy', path: site('outside/c.txt'), destination: site(`${folder}/c.txt`), depth: 0 }]);
    expect(await causesOf(ids.destroy)).toEqual([{ kind: 'action', action: 'destroy', path: site(`${folder}/c.txt`), depth: 0 }]);
  });

  it('matches a Workspace 0 automation against site paths', async () => {
    const folder = unique('site');
    const id = await watching({ path: `_/Workspaces/${ws}/${folder}` }, 0);
    expect((await putFile(t, `${folder}/x.txt`, 'x', inWs)).status).toBe(201);
    expect(await causesOf(id)).toEqual([{ kind: 'action', action: 'create', path: `_/Workspaces/${ws}/${folder}/x.txt`, depth: 0 }]);
  });

  describe('the loop guard', () => {
    const upload = (path: string): HistoryEvent => ({ action: 'create', workspaceId: ws, path, display: `Uploaded /${path}`, targets: { type: 'file', size: 1 } });
    const byRun = (id: number, depth: number): Origin => ({ interface: 'automation', ip: null, automation: { id, name: 'chain', depth } });
    /** What the core's watcher queues for `events` acted by `origin`, written as a change would write it. */
    const follow = async (origin: Origin, events: HistoryEvent[]) => {
      const watcher = new ActionTriggers(t.database.db);
      await t.database.db.transaction().execute(async (tx) => {
        const followUp = await watcher.followUp(tx, origin, events);
        await followUp?.(tx, t.clock.now());
      });
    };

    it('passes the acting run\'s depth on, queues nothing from a run at depth 3, and never triggers an automation from its own run', async () => {
      const folder = unique('chain');
      const id = await watching({ path: folder });
      const path = `_/Workspaces/${ws}/${folder}/a.txt`;
      await follow(byRun(id + 1000, 2), [upload(path)]);
      expect(await causesOf(id)).toEqual([{ kind: 'action', action: 'create', path, depth: 2 }]);
      await follow(byRun(id + 1000, 3), [upload(path)]);
      await follow(byRun(id, 1), [upload(path)]);
      expect(await causesOf(id)).toHaveLength(1);
    });
  });
});
