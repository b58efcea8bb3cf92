import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueAutomationRun } from '../../src/automations/index.js';
import { createCore } from '../../src/core.js';
import { claimDueJob, DEFAULT_LEASE_MS } from '../../src/jobs/index.js';
import { findAutomationById } from '../../src/repositories/automations.js';
import { downloadText, enc, listedPaths, newWorkspace, putFile } from '../files/files-support.js';
import { testDatabaseTargets } from '../support/databases.js';
import { ManualTimer } from '../support/manual-timer.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

const HOUR = 60 * 60 * 1000;

/**
 * Automations at work (docs/automations.md#runs): each type carried out by the run engine through
 * the REST API's own file operations, what its runs record (status, counts, log, History naming the
 * automation), steps found done already, retries, schedules on a controlled clock, and two nodes
 * sharing one database: a due run taken by exactly one, a run cut by a dead node finished by the other.
 */
describe.each(testDatabaseTargets())('automation runs at work [$name]', (target) => {
  let t: TestApp;
  let ws: number;
  const as = () => ({ key: BOOTSTRAP_KEY, workspace: ws });
  beforeAll(async () => {
    t = await startTestApp(target);
    ws = await newWorkspace(t);
  });
  afterAll(() => t.close());

  const create = async (body: Record<string, unknown>) => {
    const response = await t.api.post('/automations', body, as());
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body.id as number;
  };
  const runNow = async (id: number) => {
    expect((await t.api.post(`/automations/${id}/manual_run`, {}, as())).status).toBe(204);
    await t.core.jobs.runDue();
    return lastRun(id);
  };
  const runsOf = async (id: number) => {
    const response = await t.api.get(`/automation_runs?automation_id=${id}`, as());
    expect(response.status).toBe(200);
    return response.body as Record<string, any>[];
  };
  const lastRun = async (id: number) => (await runsOf(id)).at(-1) as Record<string, any>;
  const logOf = async (run: Record<string, any>) => {
    const response = await fetch(run.status_messages_url as string, { headers: { 'X-ServiceAPI-Key': BOOTSTRAP_KEY, 'X-Service-Workspace-Id': String(ws) } });
    expect(response.status).toBe(200);
    return response.text();
  };
  const put = async (path: string, content: string) => expect((await putFile(t, path, content, as())).status).toBe(201);
  const exists = async (path: string) => (await t.api.get(`/files/${enc(path)}`, as())).status === 200;
  const year = () => new Date(t.clock.now()).getUTCFullYear();

  it('create_folder: makes each destination with its tokens filled, once; a second run finds them made', async () => {
    const id = await create({ name: 'Weekly folders', automation: 'create_folder', destinations: ['weeks/%Y-%m-%d/', 'weeks/inbox'] });
    const run = await runNow(id);
    const day = new Date(t.clock.now()).toISOString().slice(0, 10);
    expect(run).toMatchObject({ status: 'success', successful_operations: 2, failed_operations: 0, workspace_id: ws, automation_id: id });
    expect(run.completed_at).toEqual(expect.any(String));
    expect(await listedPaths(t, 'weeks', as())).toEqual([`weeks/${day}`, 'weeks/inbox']);
    const log = await logOf(run);
    expect(log).toContain('Run by hand');
    expect(log).toContain(`Create folder /weeks/${day}: done`);
    // History names the automation, as its door, and no user.
    const records = await t.database.db.selectFrom('history').selectAll().where('action', '=', 'create').where('interface', '=', 'automation').execute();
    expect(records.map((row) => row.path)).toEqual(expect.arrayContaining([`_/Workspaces/${ws}/weeks/${day}`, `_/Workspaces/${ws}/weeks/inbox`]));
    expect(records[0]).toMatchObject({ automation_id: id, automation_name: 'Weekly folders', user_id: null, api_key_id: null, workspace_id: ws });
    const shown = await t.api.get(`/history?path=weeks/inbox`, as());
    expect(shown.body).toEqual(expect.arrayContaining([expect.objectContaining({ interface: 'automation', automation_id: id, automation_name: 'Weekly folders' })]));
    const again = await runNow(id);
    expect(again).toMatchObject({ status: 'success', successful_operations: 2 });
    expect(await logOf(again)).toContain(`Create folder /weeks/${day}: already done`);
  });

  it('copy_file: takes the files its globs match, keeps their folders under a folder destination, and a second run copies nothing twice', async () => {
    await put('drop/a.txt', 'alpha');
    await put('drop/sub/b.txt', 'beta');
    await put('drop/skip.tmp', 'temporary');
    const id = await create({ automation: 'copy_file', path: 'drop', source: '**/*', exclude_pattern: '*.tmp', destinations: ['archive/%Y/'] });
    const run = await runNow(id);
    expect(run).toMatchObject({ status: 'success', successful_operations: 2, failed_operations: 0 });
    expect(await downloadText(t, `archive/${year()}/a.txt`, as())).toBe('alpha');
    expect(await downloadText(t, `archive/${year()}/sub/b.txt`, as())).toBe('beta');
    expect(await exists(`archive/${year()}/skip.tmp`)).toBe(false);
    expect(await exists('drop/a.txt')).toBe(true);
    const again = await runNow(id);
    expect(again).toMatchObject({ status: 'success', successful_operations: 2 });
    expect(await logOf(again)).toContain(`Copy /drop/a.txt to /archive/${year()}/a.txt: already done`);
  });

  it('copy_file: a destination taken by other bytes fails its step unless overwrite_files, and the run says partial_failure', async () => {
    await put('clash/one.txt', 'new one');
    await put('clash/two.txt', 'new two');
    await put('clashed/one.txt', 'old bytes, longer');
    const id = await create({ automation: 'copy_file', path: 'clash', destinations: ['clashed/'] });
    const run = await runNow(id);
    expect(run).toMatchObject({ status: 'partial_failure', successful_operations: 1, failed_operations: 1 });
    expect(await logOf(run)).toContain('Copy /clash/one.txt to /clashed/one.txt: failed: /clashed/one.txt exists, and overwrite_files is off');
    expect(await downloadText(t, 'clashed/one.txt', as())).toBe('old bytes, longer');
    expect((await t.api.patch(`/automations/${id}`, { overwrite_files: true }, as())).status).toBe(200);
    expect(await runNow(id)).toMatchObject({ status: 'success', successful_operations: 2 });
    expect(await downloadText(t, 'clashed/one.txt', as())).toBe('new one');
  });

  it('move_file: with two destinations the file is copied to the second and moved to the first', async () => {
    await put('outbox/report.csv', 'a,b');
    const id = await create({ automation: 'move_file', path: 'outbox', destinations: ['sent/', 'copies/%Fb-copy.%Fe'] });
    const run = await runNow(id);
    expect(run).toMatchObject({ status: 'success', successful_operations: 2 });
    expect(await exists('outbox/report.csv')).toBe(false);
    expect(await downloadText(t, 'sent/report.csv', as())).toBe('a,b');
    expect(await downloadText(t, 'copies/report-copy.csv', as())).toBe('a,b');
    const moves = await t.database.db.selectFrom('history').selectAll().where('action', '=', 'move').where('automation_id', '=', id).execute();
    expect(moves.map((row) => [row.path, row.destination])).toEqual([[`_/Workspaces/${ws}/outbox/report.csv`, `_/Workspaces/${ws}/sent/report.csv`]]);
  });

  it('delete_file: deletes what its globs match, with value.older_than_days only what has not changed for that long', async () => {
    await put('exports/old.csv', 'old');
    t.clock.advance(40 * 24 * HOUR);
    await put('exports/new.csv', 'new');
    const id = await create({ automation: 'delete_file', path: 'exports', value: { older_than_days: 30 } });
    expect(await runNow(id)).toMatchObject({ status: 'success', successful_operations: 1 });
    expect(await listedPaths(t, 'exports', as())).toEqual(['exports/new.csv']);
    const none = await runNow(id);
    expect(none).toMatchObject({ status: 'success', successful_operations: 0, failed_operations: 0 });
  });

  it('a destination that would leave the Workspace is refused when saved; one that cannot be filled in fails its step, recorded in the log', async () => {
    const refused = await t.api.post('/automations', { automation: 'copy_file', path: 'edge', destinations: ['../../outside/'] }, as());
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ type: 'processing-failure/model-save-error' });
    expect(JSON.stringify(refused.body)).toContain('climbs 2 folders');
    await put('edge/x.txt', 'x');
    const id = await create({ automation: 'copy_file', path: 'edge', destinations: ['deep/%p3/'] });
    const run = await runNow(id);
    expect(run).toMatchObject({ status: 'failure', successful_operations: 0, failed_operations: 1 });
    expect(await logOf(run)).toMatch(/Copy \/edge\/x\.txt to deep\/%p3\/: failed: .*%p3/);
  });

  it('an automation of Workspace 0 reaches a Custom Workspace\'s folders as a Site Administrator does', async () => {
    await put('site-drop/f.txt', 'from the site');
    const response = await t.api.post('/automations', { automation: 'copy_file', path: `_/Workspaces/${ws}/site-drop`, destinations: [`_/Workspaces/${ws}/site-copy/`] }, { key: BOOTSTRAP_KEY });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect((await t.api.post(`/automations/${response.body.id}/manual_run`, {}, { key: BOOTSTRAP_KEY })).status).toBe(204);
    await t.core.jobs.runDue();
    expect(await downloadText(t, 'site-copy/f.txt', as())).toBe('from the site');
  });

  it('a step that meets another holder\'s lock is tried three times with back-off, then fails', async () => {
    await put('locked/held.txt', 'held');
    const member = await t.api.post('/users', { username: `holder-${Date.now()}`, workspace_id: ws, workspace_admin: true }, { key: BOOTSTRAP_KEY });
    expect(member.status, JSON.stringify(member.body)).toBe(201);
    const key = await t.api.post('/api_keys', { user_id: member.body.id, name: 'holder' }, { key: BOOTSTRAP_KEY, workspace: ws });
    expect(key.status, JSON.stringify(key.body)).toBe(201);
    expect((await t.api.post(`/locks/${enc('locked/held.txt')}`, { timeout: 86_400 }, { key: key.body.key, workspace: ws })).status).toBe(201);
    const id = await create({ automation: 'delete_file', path: 'locked' });
    expect((await t.api.post(`/automations/${id}/manual_run`, {}, as())).status).toBe(204);
    let settled = false;
    const running = t.core.jobs.runDue().finally(() => {
      settled = true;
    });
    // Each wait between tries is on the server's timer: fired here, never waited for.
    const waits: number[] = [];
    while (!settled) {
      const retryWait = t.timer.pending().find((ms) => ms === 15_000 || ms === 60_000);
      if (retryWait !== undefined) {
        waits.push(retryWait);
        t.timer.fire();
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    await running;
    expect(waits).toEqual([15_000, 60_000]);
    const run = await lastRun(id);
    expect(run).toMatchObject({ status: 'failure', failed_operations: 1 });
    expect(await logOf(run)).toContain('Delete /locked/held.txt: failed:');
    expect(await exists('locked/held.txt')).toBe(true);
  });

  it('retry_on_failure queues the failed run again after its interval, and links the two runs', async () => {
    await put('retry/r.txt', 'r');
    await put('retried/r.txt', 'other bytes');
    const id = await create({ automation: 'copy_file', path: 'retry', destinations: ['retried/'], retry_on_failure_interval_in_minutes: 5, retry_on_failure_number_of_attempts: 1 });
    await runNow(id);
    const failed = (await runsOf(id))[0] as Record<string, any>;
    expect(failed).toMatchObject({ status: 'failure', retry_at: new Date(t.clock.now() + 5 * 60_000).toISOString().replace('.000Z', 'Z') });
    const [, retry] = await runsOf(id);
    expect(retry).toMatchObject({ status: 'queued', retry_of_run_id: failed.id });
    expect((await runsOf(id))[0]).toMatchObject({ retried_in_run_id: retry?.id });
    await t.core.jobs.runDue();
    expect((await lastRun(id)).status).toBe('queued');
    t.clock.advanceMinutes(5);
    await t.core.jobs.runDue();
    const runs = await runsOf(id);
    expect(runs.map((run) => run.status)).toEqual(['failure', 'failure']);
    expect(runs[0]).toMatchObject({ retried_in_run_id: runs[1]?.id, retried_at: expect.any(String) });
    // One retry was asked for: the second failure is the last.
    expect(runs[1]?.retry_at).toBeNull();
  });

  it('a run queued before its automation was disabled is skipped; a manual run of a disabled automation runs', async () => {
    const id = await create({ automation: 'create_folder', destinations: ['skipped/'], trigger: 'daily' });
    const automation = await findAutomationById(t.database.db, id);
    await t.database.db.transaction().execute((tx) => queueAutomationRun(tx, automation!, { kind: 'schedule', dueAt: t.clock.now(), missed: 0 }, t.clock.now()));
    expect((await t.api.patch(`/automations/${id}`, { disabled: true }, as())).status).toBe(200);
    await t.core.jobs.runDue();
    const skipped = await lastRun(id);
    expect(skipped).toMatchObject({ status: 'skipped', successful_operations: 0 });
    expect(await logOf(skipped)).toContain('The automation is disabled: nothing was done');
    const folder = async () => (await t.api.get('/folders/skipped', as())).status;
    expect(await folder()).toBe(404);
    expect(await runNow(id)).toMatchObject({ status: 'success', successful_operations: 1 });
    expect(await folder()).toBe(200);
  });

  it('a schedule queues a run at its due time, once, and due times missed while down stand for one run', async () => {
    // 08:00 UTC on some day: the automation runs daily at 09:00 UTC.
    const day = Math.ceil(t.clock.now() / (24 * HOUR)) * 24 * HOUR;
    t.clock.advance(day + 8 * HOUR - t.clock.now());
    const id = await create({ automation: 'create_folder', trigger: 'daily', schedule_times_of_day: ['09:00'], destinations: ['daily/%Y-%m-%d/'] });
    await t.core.jobs.runDue();
    expect(await runsOf(id)).toEqual([]);
    t.clock.advance(HOUR + 1000);
    await t.core.jobs.runDue();
    await t.core.jobs.runDue();
    const runs = await runsOf(id);
    expect(runs.map((run) => run.status)).toEqual(['success']);
    expect(await logOf(runs[0]!)).toContain(`Run for its schedule's due time ${new Date(day + 9 * HOUR).toISOString().replace('.000Z', 'Z')}`);
    // Three days down: the three due times since stand for one run, at the latest.
    t.clock.advance(3 * 24 * HOUR);
    await t.core.jobs.runDue();
    const after = await runsOf(id);
    expect(after.map((run) => run.status)).toEqual(['success', 'success']);
    expect(await logOf(after[1]!)).toContain('standing also for 2 earlier due times missed while the server was down');
  });

  it('an action trigger runs on the file that arrived: a copy into archive/%Y/, recorded as the automation', async () => {
    const id = await create({ name: 'Archive the inbox', automation: 'copy_file', trigger: 'action', trigger_actions: ['create'], path: 'inbox', destinations: ['archive/%Y/'] });
    await put('inbox/arrived.txt', 'arrived');
    expect((await lastRun(id)).status).toBe('queued');
    await t.core.jobs.runDue();
    const run = await lastRun(id);
    expect(run).toMatchObject({ status: 'success', successful_operations: 1 });
    expect(await logOf(run)).toContain(`Run because of the create of /_/Workspaces/${ws}/inbox/arrived.txt`);
    expect(await downloadText(t, `archive/${year()}/arrived.txt`, as())).toBe('arrived');
    const copies = await t.database.db.selectFrom('history').selectAll().where('action', '=', 'copy').where('automation_id', '=', id).execute();
    expect(copies).toEqual([expect.objectContaining({ interface: 'automation', automation_name: 'Archive the inbox', destination: `_/Workspaces/${ws}/archive/${year()}/arrived.txt` })]);
  });

  it('automations that trigger each other stop three levels deep: a copy into a watched folder never runs forever', async () => {
    // A copy arrives by `copy`, a new file by `create`: each follows both.
    const ping = await create({ automation: 'copy_file', trigger: 'action', trigger_actions: ['create', 'copy'], path: 'ping', destinations: ['pong/%Fb+.%Fe'] });
    const pong = await create({ automation: 'copy_file', trigger: 'action', trigger_actions: ['create', 'copy'], path: 'pong', destinations: ['ping/%Fb+.%Fe'] });
    await put('ping/f.txt', 'ball');
    for (let round = 0; round < 10 && (await t.core.jobs.runDue()) > 0; round += 1);
    expect(await listedPaths(t, 'ping', as())).toEqual(['ping/f++.txt', 'ping/f.txt']);
    expect(await listedPaths(t, 'pong', as())).toEqual(['pong/f+++.txt', 'pong/f+.txt']);
    expect((await runsOf(ping)).map((run) => run.status)).toEqual(['success', 'success']);
    expect((await runsOf(pong)).map((run) => run.status)).toEqual(['success']);
  });

  it('import_file: a loopback URL is refused by default, and imported once a Site Administrator allows internal addresses', async () => {
    const server = http.createServer((request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="rates.csv"' });
      response.end(`rates for ${request.method}`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const id = await create({ automation: 'import_file', destinations: ['imports/%Y/'], import_urls: [{ name: 'rates', url: `http://127.0.0.1:${port}/daily?token=secret-token`, method: 'get' }] });
      const refused = await runNow(id);
      expect(refused).toMatchObject({ status: 'failure', failed_operations: 1 });
      const log = await logOf(refused);
      expect(log).toContain(`Import http://127.0.0.1:${port}/daily: failed:`);
      expect(log).toContain('automation_import_private_addresses');
      // The query may hold a token: never in the log.
      expect(log).not.toContain('secret-token');
      expect((await t.api.patch('/site', { automation_import_private_addresses: true }, { key: BOOTSTRAP_KEY })).status).toBe(200);
      expect(await runNow(id)).toMatchObject({ status: 'success', successful_operations: 1 });
      expect(await downloadText(t, `imports/${year()}/rates.csv`, as())).toBe('rates for GET');
    } finally {
      await t.api.patch('/site', { automation_import_private_addresses: false }, { key: BOOTSTRAP_KEY });
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('a run whose every attempt died with its node ends as a failure saying why, not running for ever', async () => {
    const id = await create({ automation: 'create_folder', destinations: ['never/'] });
    expect((await t.api.post(`/automations/${id}/manual_run`, {}, as())).status).toBe(204);
    // Three nodes take it in turn and die before recording anything: each attempt's lease runs out.
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      expect(await claimDueJob(t.database.db, `a node that dies, ${attempt}`, t.clock.now(), DEFAULT_LEASE_MS)).toBeDefined();
      t.clock.advance(DEFAULT_LEASE_MS + 1);
    }
    await t.core.jobs.runDue();
    const run = await lastRun(id);
    expect(run).toMatchObject({ status: 'failure', completed_at: expect.any(String) });
    expect(await logOf(run)).toContain('The run could not be carried out: the node running its last attempt stopped before it ended (3 of 3 attempts)');
  });

  describe('two nodes on one database', () => {
    const secondNode = () => {
      const core = createCore({
        database: t.database, clock: t.clock, timer: new ManualTimer(),
        config: { headerBrands: ['Service'], logLevel: 'silent', accessLog: false, trustProxy: false, dataDir: t.dataDir, maxUploadBytes: 1 << 30 },
      });
      return core;
    };

    it('a due run is taken by exactly one of the two', async () => {
      const other = secondNode();
      const day = Math.ceil(t.clock.now() / (24 * HOUR)) * 24 * HOUR;
      t.clock.advance(day + 8 * HOUR - t.clock.now());
      const id = await create({ automation: 'create_folder', trigger: 'daily', schedule_times_of_day: ['09:00'], destinations: ['both/%Y-%m-%d/'] });
      t.clock.advance(HOUR);
      await Promise.all([t.core.jobs.runDue(), other.jobs.runDue()]);
      const runs = await runsOf(id);
      expect(runs.map((run) => run.status)).toEqual(['success']);
      const jobs = await t.database.db.selectFrom('jobs').select(['status', 'locked_by', 'attempts']).where('kind', '=', 'automation_run').where('payload', '=', JSON.stringify({ runId: runs[0]?.id })).execute();
      expect(jobs).toEqual([expect.objectContaining({ status: 'done', attempts: 1 })]);
      expect([t.core.jobs.nodeId, other.jobs.nodeId]).toContain(jobs[0]?.locked_by);
    });

    it('a run cut by a dead node is finished by the other once its lease runs out, with nothing done twice', async () => {
      const other = secondNode();
      await put('crash/c.txt', 'crash');
      const id = await create({ automation: 'copy_file', path: 'crash', destinations: ['crashed/'] });
      expect((await t.api.post(`/automations/${id}/manual_run`, {}, as())).status).toBe(204);
      // A node takes the job, copies the file and dies before recording anything.
      const claimed = await claimDueJob(t.database.db, 'a node that dies', t.clock.now(), DEFAULT_LEASE_MS);
      expect(claimed).toBeDefined();
      expect((await t.api.post(`/file_actions/copy/${enc('crash/c.txt')}`, { destination: 'crashed/c.txt', mkdir_parents: true }, as())).status).toBe(201);
      await other.jobs.runDue();
      expect((await lastRun(id)).status).toBe('queued');
      t.clock.advance(DEFAULT_LEASE_MS + 1);
      expect(await other.jobs.runDue()).toBe(1);
      const run = await lastRun(id);
      expect(run).toMatchObject({ status: 'success', successful_operations: 1 });
      expect(await logOf(run)).toContain('Copy /crash/c.txt to /crashed/c.txt: already done');
      expect(await listedPaths(t, 'crashed', as())).toEqual(['crashed/c.txt']);
    });
  });
});
