import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryRow } from '../../src/repositories/history.js';
import { testDatabaseTargets } from '../support/databases.js';
import { createGroup, unique } from '../support/factories.js';
import { buildSite, type SiteFixture } from '../support/site-fixture.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { fieldsNotOffered } from '../support/sdk-fields-doc.js';

/**
 * The Automation's fields as the Files.com SDK documents them (`docs/models/Automation.md` of the
 * npm SDK, and the newer `recurring_days`, `schedule`, `deleted`). Each is returned, or listed as
 * not offered under `### Automation` in docs/sdk-fields.md.
 */
const SDK_AUTOMATION_FIELDS = [
  'id', 'workspace_id', 'name', 'description', 'automation', 'trigger', 'interval', 'recurring_day', 'recurring_days', 'schedule',
  'schedule_days_of_week', 'schedule_times_of_day', 'schedule_time_zone', 'schedule_id', 'human_readable_schedule', 'holiday_region', 'path',
  'source', 'exclude_pattern', 'destinations', 'destination_replace_from', 'destination_replace_to', 'path_time_zone', 'trigger_actions',
  'webhook_url', 'inbound_email_address', 'disabled', 'deleted', 'last_modified_at', 'overwrite_files', 'always_overwrite_size_matching_files',
  'flatten_destination_structure', 'ignore_locked_folders', 'always_serialize_jobs', 'legacy_folder_matching', 'retry_on_failure_interval_in_minutes',
  'retry_on_failure_number_of_attempts', 'import_urls', 'sync_ids', 'legacy_sync_ids', 'user_ids', 'group_ids', 'user_id', 'value',
];

const require = createRequire(import.meta.url);
const Files = require('files.com/lib/Files.js');
const { LogLevel } = require('files.com/lib/Logger.js');
const SdkAutomation = require('files.com/lib/models/Automation.js').default;
const SdkAutomationRun = require('files.com/lib/models/AutomationRun.js').default;

/** /automations and /automation_runs through the REST API: every endpoint, every refusal, History, and the npm SDK. */
describe.each(testDatabaseTargets())('automations [$name]', (target) => {
  let t: TestApp;
  let s: SiteFixture;
  beforeAll(async () => {
    // The Files brand too, for the npm SDK's headers.
    t = await startTestApp(target, { brands: ['Service', 'Files'] });
    s = await buildSite(t);
  });
  afterAll(() => t.close());

  const records = (action: string) => t.database.db.selectFrom('history').selectAll().where('action', '=', action).orderBy('id').execute();
  const targetsOf = (row: HistoryRow | undefined) => JSON.parse(row?.targets ?? 'null') as Record<string, unknown>;
  const create = (body: Record<string, unknown>, key = s.admin1.key) => t.api.post('/automations', body, { key });
  const jobsOf = (runId: number) => t.database.db.selectFrom('jobs').selectAll().where('kind', '=', 'automation_run').execute()
    .then((rows) => rows.filter((row) => (JSON.parse(row.payload) as { runId: number }).runId === runId));

  it('creates an automation in the Workspace of the request, every field returned and recorded', async () => {
    const name = unique('Nightly');
    const group = await createGroup(t.database.db, { workspaceId: s.ws1 });
    const response = await create({
      name, description: 'copy the drops', automation: 'copy_file', trigger: 'custom_schedule', path: '/inbox/**/', source: '*.csv',
      exclude_pattern: '*.tmp', destinations: ['archive/%Y/'], destination_replace_from: ' ', destination_replace_to: '_', path_time_zone: 'UTC',
      schedule_days_of_week: [3, 1], schedule_times_of_day: ['14:30', '06:30'], schedule_time_zone: 'Eastern Time (US & Canada)',
      overwrite_files: true, retry_on_failure_interval_in_minutes: 15, retry_on_failure_number_of_attempts: 3,
      user_ids: `${s.member1.user.id}`, group_ids: [group], value: { limit: '1' },
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(Number), workspace_id: s.ws1, name, description: 'copy the drops', automation: 'copy_file', trigger: 'custom_schedule',
      interval: null, recurring_day: null, recurring_days: [],
      schedule: { days_of_week: [1, 3], times_of_day: ['06:30', '14:30'], time_zone: 'Eastern Time (US & Canada)' },
      schedule_days_of_week: [1, 3], schedule_times_of_day: ['06:30', '14:30'], schedule_time_zone: 'Eastern Time (US & Canada)',
      human_readable_schedule: 'Every Monday and Wednesday at 06:30 and 14:30, Eastern Time (US & Canada)',
      // Atrium's own field, tested in next-run-times.test.ts.
      next_run_times: expect.any(Array),
      path: 'inbox/**', source: '*.csv', exclude_pattern: '*.tmp', destinations: ['archive/%Y/'], destination_replace_from: null,
      destination_replace_to: '_', path_time_zone: 'UTC', trigger_actions: [], webhook_url: null, disabled: false, deleted: false,
      last_modified_at: expect.any(String), overwrite_files: true, always_overwrite_size_matching_files: false, flatten_destination_structure: false,
      ignore_locked_folders: false, retry_on_failure_interval_in_minutes: 15, retry_on_failure_number_of_attempts: 3, import_urls: [],
      user_ids: [s.member1.user.id], group_ids: [group], user_id: s.admin1.user.id, value: { limit: '1' },
    });
    const recorded = (await records('automation_create')).at(-1);
    expect(recorded).toMatchObject({ workspace_id: s.ws1, user_id: s.admin1.user.id, display: `Created automation ${name}` });
    expect(targetsOf(recorded)).toMatchObject({ id: response.body.id, name, automation: 'copy_file', destinations: ['archive/%Y/'] });
    expect((await t.api.get(`/automations/${response.body.id}`, { key: s.admin1.key })).body).toEqual(response.body);
  });

  it('returns every field the SDK documents, or lists it as not offered', async () => {
    const body = (await create({ automation: 'delete_file', path: 'old' })).body as Record<string, unknown>;
    const notOffered = fieldsNotOffered('Automation');
    const missing = SDK_AUTOMATION_FIELDS.filter((field) => !(field in body) && !notOffered.has(field));
    expect(missing).toEqual([]);
    expect([...notOffered].filter((field) => field in body)).toEqual([]);
  });

  it('refuses types and triggers it does not run, and what is missing or malformed, naming the parameter', async () => {
    const cases: [Record<string, unknown>, number, string, string][] = [
      [{ name: 'x' }, 400, 'bad-request/request-params-required', 'automation'],
      [{ automation: 'as2_send' }, 422, 'processing-failure/model-save-error', 'automation'],
      [{ automation: 'run_sync' }, 422, 'processing-failure/model-save-error', 'automation'],
      [{ automation: 'v2' }, 422, 'processing-failure/model-save-error', 'automation'],
      [{ automation: 'teleport' }, 400, 'bad-request/request-params-invalid', 'automation'],
      [{ automation: 'copy_file', trigger: 'email' }, 422, 'processing-failure/model-save-error', 'trigger'],
      [{ automation: 'copy_file', trigger: 'hourly' }, 400, 'bad-request/request-params-invalid', 'trigger'],
      [{ automation: 'copy_file', trigger: 'action' }, 422, 'processing-failure/model-save-error', 'trigger_actions'],
      [{ automation: 'create_folder', trigger: 'action', trigger_actions: ['create'] }, 422, 'processing-failure/model-save-error', 'trigger'],
      [{ automation: 'copy_file', trigger: 'action', trigger_actions: ['explode'] }, 400, 'bad-request/request-params-invalid', 'trigger_actions'],
      [{ automation: 'copy_file', trigger: 'custom_schedule' }, 422, 'processing-failure/model-save-error', 'schedule_days_of_week'],
      [{ automation: 'copy_file', interval: 'fortnight' }, 400, 'bad-request/request-params-invalid', 'interval'],
      [{ automation: 'copy_file', schedule_times_of_day: ['25:00'] }, 400, 'bad-request/request-params-invalid', 'schedule_times_of_day'],
      [{ automation: 'copy_file', schedule_days_of_week: [7] }, 400, 'bad-request/request-params-invalid', 'schedule_days_of_week'],
      [{ automation: 'copy_file', retry_on_failure_interval_in_minutes: 2 }, 400, 'bad-request/request-params-invalid', 'retry_on_failure_interval_in_minutes'],
      [{ automation: 'copy_file', retry_on_failure_number_of_attempts: 11 }, 400, 'bad-request/request-params-invalid', 'retry_on_failure_number_of_attempts'],
      [{ automation: 'import_file', import_urls: [{ url: 'ftp://x' }] }, 400, 'bad-request/request-params-invalid', 'import_urls'],
      [{ automation: 'copy_file', user_ids: 'a,b' }, 400, 'bad-request/request-params-invalid', 'user_ids'],
      [{ automation: 'copy_file', path: 'a/../b' }, 400, 'bad-request/request-params-invalid', 'path'],
      [{ automation: 'copy_file', sync_ids: '1' }, 400, 'bad-request/request-params-invalid', 'sync_ids'],
      // What the pure rules read: globs, tokens, time zones and schedules.
      [{ automation: 'copy_file', source: '[abc' }, 400, 'bad-request/request-params-invalid', 'source'],
      [{ automation: 'copy_file', destinations: ['archive/%q/'] }, 400, 'bad-request/request-params-invalid', 'destinations'],
      [{ automation: 'copy_file', schedule_time_zone: 'Mars/Olympus_Mons' }, 400, 'bad-request/request-params-invalid', 'schedule_time_zone'],
      [{ automation: 'copy_file', path_time_zone: 'Nowhere Standard Time' }, 400, 'bad-request/request-params-invalid', 'path_time_zone'],
    ];
    const before = (await records('automation_create')).length;
    for (const [body, status, type, field] of cases) {
      const response = await create(body);
      expect({ body, status: response.status, type: response.body.type, named: JSON.stringify(response.body).includes(field) }).toEqual({ body, status, type, named: true });
    }
    expect((await records('automation_create')).length).toBe(before);
    // Users and groups must be ones the caller can see; a group of another Workspace is not found.
    const otherGroup = await createGroup(t.database.db, { workspaceId: s.ws2 });
    expect((await create({ automation: 'copy_file', group_ids: `${otherGroup}` })).body.type).toBe('not-found/group-not-found');
    expect((await create({ automation: 'copy_file', user_ids: [s.member2.user.id] })).body.type).toBe('not-found/user-not-found');
  });

  it('accepts each type it runs, and an import_file with its URLs', async () => {
    for (const automation of ['create_folder', 'delete_file', 'copy_file', 'move_file']) {
      expect((await create({ automation, trigger: 'daily', interval: 'week', recurring_day: 2 })).body).toMatchObject({ automation, trigger: 'daily', recurring_day: 2, recurring_days: [2] });
    }
    const imported = await create({ automation: 'import_file', import_urls: [{ name: 'feed.csv', url: 'https://example.com/feed', method: 'POST', headers: { a: 'b' } }] });
    expect([imported.status, imported.body.import_urls]).toEqual([201, [{ name: 'feed.csv', url: 'https://example.com/feed', method: 'post', headers: { a: 'b' } }]]);
  });

  it('changes what is sent, keeps last_modified_at for a name or description change, records the change', async () => {
    const made = (await create({ name: unique('Chg'), automation: 'move_file', destinations: ['a/'] })).body;
    // Set in the past, so that any change of it shows.
    await t.database.db.updateTable('automations').set({ last_modified_at: Date.UTC(2020, 0, 2) }).where('id', '=', made.id).execute();
    const renamed = await t.api.patch(`/automations/${made.id}`, { name: 'Renamed', description: 'd' }, { key: s.admin1.key });
    expect(renamed.body).toMatchObject({ name: 'Renamed', description: 'd', last_modified_at: '2020-01-02T00:00:00Z', destinations: ['a/'] });
    const changed = await t.api.put(`/automations/${made.id}`, { destinations: ['b/', 'c/'], disabled: true }, { key: s.admin1.key });
    expect(changed.body).toMatchObject({ name: 'Renamed', destinations: ['b/', 'c/'], disabled: true });
    expect(changed.body.last_modified_at).not.toBe('2020-01-02T00:00:00Z');
    const recorded = (await records('automation_update')).at(-1);
    expect(targetsOf(recorded)).toMatchObject({ id: made.id, changed: ['destinations', 'disabled'], before: { destinations: ['a/'], disabled: false }, after: { destinations: ['b/', 'c/'], disabled: true } });
    const count = (await records('automation_update')).length;
    expect((await t.api.patch(`/automations/${made.id}`, { disabled: true }, { key: s.admin1.key })).status).toBe(200);
    expect((await records('automation_update')).length).toBe(count);
    const moved = await t.api.patch(`/automations/${made.id}`, { workspace_id: s.ws2 }, { key: s.admin1.key });
    expect([moved.status, moved.body.type]).toEqual([400, 'bad-request/request-params-invalid']);
    const refused = await t.api.patch(`/automations/${made.id}`, { automation: 'v2' }, { key: s.admin1.key });
    expect([refused.status, refused.body.type, Object.keys(refused.body.model_errors)]).toEqual([422, 'processing-failure/model-save-error', ['automation']]);
  });

  it('gives a webhook automation a secret URL, whole only in the answer that made it', async () => {
    const made = (await create({ automation: 'copy_file', trigger: 'webhook' })).body;
    expect(made.webhook_url).toMatch(new RegExp(`^${t.baseUrl}/api/rest/v1/automations/webhook/[A-Za-z0-9_-]+/[A-Za-z0-9_-]{43}$`));
    const secret = (made.webhook_url as string).split('/').at(-1) as string;
    const shown = (await t.api.get(`/automations/${made.id}`, { key: s.admin1.key })).body.webhook_url as string;
    expect(shown).toBe((made.webhook_url as string).replace(secret, '********'));
    const row = await t.database.db.selectFrom('automations').selectAll().where('id', '=', made.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(JSON.stringify(await records('automation_create'))).not.toContain(secret);
    const manual = await t.api.patch(`/automations/${made.id}`, { trigger: 'manual' }, { key: s.admin1.key });
    expect(manual.body.webhook_url).toBeNull();
  });

  it('lets only administrators of the Workspace see and manage automations, and hides them from every other Workspace', async () => {
    const own = (await create({ automation: 'copy_file' })).body;
    const other = (await t.api.post('/automations', { automation: 'delete_file' }, { key: s.delegate.key, workspace: s.ws2 })).body;
    expect(other.workspace_id).toBe(s.ws2);
    const byMember = await create({ automation: 'copy_file' }, s.member1.key);
    expect([byMember.status, byMember.body.type]).toEqual([403, 'not-authorized/site-admin-or-workspace-admin-permission-required']);
    expect((await t.api.get('/automations', { key: s.member1.key })).body).toEqual([]);
    for (const [id, key] of [[own.id, s.member1.key], [other.id, s.admin1.key]] as const) {
      for (const response of [
        await t.api.get(`/automations/${id}`, { key }),
        await t.api.patch(`/automations/${id}`, { name: 'x' }, { key }),
        await t.api.delete(`/automations/${id}`, { key }),
        await t.api.post(`/automations/${id}/manual_run`, {}, { key }),
        await t.api.get(`/automation_runs?automation_id=${id}`, { key }),
      ]) expect([response.status, response.body.type, response.body.error]).toEqual([404, 'not-found', 'Automation not found.']);
    }
    const listed = (await t.api.get('/automations', { key: s.admin1.key })).body as { id: number; workspace_id: number }[];
    expect(listed.map((a) => a.id)).toContain(own.id);
    expect(listed.every((a) => a.workspace_id === s.ws1)).toBe(true);
  });

  it('lists with cursors, sorts and filters as the SDK asks, refusing other fields by name', async () => {
    const tag = unique('list');
    const made = [];
    for (const [i, automation] of (['move_file', 'copy_file', 'delete_file'] as const).entries()) {
      made.push((await t.api.post('/automations', { automation, name: `${tag}-${i}`, disabled: i === 1 }, { key: s.delegate.key, workspace: s.ws2 })).body);
    }
    const list = (query: string) => t.api.get(`/automations?${query}`, { key: s.delegate.key, workspace: s.ws2 });
    const first = await list('per_page=2&sort_by[name]=desc');
    expect(first.body.map((a: { name: string }) => a.name)).toEqual([`${tag}-2`, `${tag}-1`]);
    const cursor = first.headers.get('x-files-cursor');
    expect(cursor).toBeTruthy();
    const second = await list(`per_page=2&sort_by[name]=desc&cursor=${encodeURIComponent(cursor as string)}`);
    // The Workspace holds automations of other tests too: only these three are looked at.
    const ids = made.map((a) => a.id as number);
    const ours = (response: { body: { id: number }[] }) => response.body.map((a) => a.id).filter((id) => ids.includes(id));
    expect(second.body[0].name).toBe(`${tag}-0`);
    expect(ours(await list('filter[disabled]=true'))).toEqual([made[1].id]);
    expect(ours(await list('filter[automation]=delete_file'))).toEqual([made[2].id]);
    expect((await list(`filter[workspace_id]=${s.ws2}&sort_by[disabled]=desc`)).body[0].id).toBe(made[1].id);
    expect(ours(await list('filter_gt[last_modified_at]=2000-01-01T00:00:00Z'))).toEqual(ids);
    expect((await list('filter_lt[last_modified_at]=2000-01-01T00:00:00Z')).body).toEqual([]);
    for (const sort of ['workspace_id', 'automation', 'last_modified_at']) expect((await list(`sort_by[${sort}]=asc`)).status).toBe(200);
    const badSort = await list('sort_by[path]=asc');
    expect([badSort.status, badSort.body.type]).toEqual([400, 'bad-request/invalid-sort-field']);
    const badFilter = await list('filter[name]=x');
    expect([badFilter.status, badFilter.body.type]).toEqual([400, 'bad-request/invalid-filter-field']);
  });

  it('queues a manual run as a run and a job, lists and shows runs, serves their log, and refuses trigger action', async () => {
    const made = (await create({ automation: 'copy_file', name: unique('Run') })).body;
    const ran = await t.api.post(`/automations/${made.id}/manual_run`, {}, { key: s.admin1.key });
    expect([ran.status, ran.text]).toEqual([204, '']);
    const runs = await t.api.get(`/automation_runs?automation_id=${made.id}`, { key: s.admin1.key });
    expect(runs.body).toEqual([{
      id: expect.any(Number), automation_id: made.id, workspace_id: s.ws1, status: 'queued', created_at: expect.any(String), completed_at: null, runtime: null,
      successful_operations: 0, failed_operations: 0, retry_at: null, retried_at: null, retried_in_run_id: null, retry_of_run_id: null,
      status_messages_url: `${t.baseUrl}/api/rest/v1/automation_runs/${runs.body[0].id}/status_messages`,
    }]);
    const run = runs.body[0];
    const jobs = await jobsOf(run.id);
    expect(jobs.map((job) => [job.kind, job.status])).toEqual([['automation_run', 'queued']]);
    expect((await t.api.get(`/automation_runs/${run.id}`, { key: s.admin1.key })).body).toEqual(run);
    await t.database.db.updateTable('automation_runs').set({ log: 'copied a.csv\n' }).where('id', '=', run.id).execute();
    const log = await t.api.get(`/automation_runs/${run.id}/status_messages`, { key: s.admin1.key });
    expect([log.status, log.headers.get('content-type'), log.text]).toEqual([200, 'text/plain; charset=utf-8', 'copied a.csv\n']);
    for (const response of [
      await t.api.get(`/automation_runs/${run.id}`, { key: s.member1.key }),
      await t.api.get(`/automation_runs/${run.id}/status_messages`, { key: s.member1.key }),
    ]) expect([response.status, response.body.type, response.body.error]).toEqual([404, 'not-found', 'Automation run not found.']);

    await t.api.post(`/automations/${made.id}/manual_run`, {}, { key: s.admin1.key });
    expect((await t.api.get(`/automation_runs?automation_id=${made.id}&sort_by[created_at]=desc&filter[status]=queued`, { key: s.admin1.key })).body).toHaveLength(2);
    expect((await t.api.get(`/automation_runs?automation_id=${made.id}&filter[status]=success`, { key: s.admin1.key })).body).toEqual([]);
    expect((await t.api.get(`/automation_runs?automation_id=${made.id}&filter[automation_id]=${made.id + 1000}`, { key: s.admin1.key })).body).toEqual([]);
    expect((await t.api.get(`/automation_runs?automation_id=${made.id}&sort_by[status]=asc&per_page=1`, { key: s.admin1.key })).body).toHaveLength(1);
    const missing = await t.api.get('/automation_runs', { key: s.admin1.key });
    expect([missing.status, missing.body.type]).toEqual([400, 'bad-request/request-params-required']);

    const onAction = (await create({ automation: 'copy_file', trigger: 'action', trigger_actions: ['create'] })).body;
    const refused = await t.api.post(`/automations/${onAction.id}/manual_run`, {}, { key: s.admin1.key });
    expect([refused.status, refused.body.type]).toEqual([422, 'processing-failure/automation-cannot-be-run-manually']);
    expect((await t.api.get(`/automation_runs?automation_id=${onAction.id}`, { key: s.admin1.key })).body).toEqual([]);
  });

  it('deletes an automation with its runs, recorded', async () => {
    const made = (await create({ automation: 'delete_file', name: unique('Del') })).body;
    await t.api.post(`/automations/${made.id}/manual_run`, {}, { key: s.admin1.key });
    const deleted = await t.api.delete(`/automations/${made.id}`, { key: s.admin1.key });
    expect(deleted.status).toBe(204);
    expect((await t.api.get(`/automations/${made.id}`, { key: s.admin1.key })).status).toBe(404);
    expect(await t.database.db.selectFrom('automation_runs').select('id').where('automation_id', '=', made.id).execute()).toEqual([]);
    expect(targetsOf((await records('automation_destroy')).at(-1))).toMatchObject({ id: made.id, name: made.name });
  });

  it('keeps a Workspace that holds automations from being deleted', async () => {
    const workspace = (await t.api.post('/workspaces', { name: unique('ws') }, { key: BOOTSTRAP_KEY })).body;
    const made = (await t.api.post('/automations', { automation: 'delete_file', workspace_id: workspace.id }, { key: BOOTSTRAP_KEY })).body;
    expect(made.workspace_id).toBe(workspace.id);
    const refused = await t.api.delete(`/workspaces/${workspace.id}`, { key: BOOTSTRAP_KEY });
    expect([refused.status, refused.body.type, refused.body.error]).toEqual([422, 'processing-failure/model-save-error', expect.stringContaining('1 automations')]);
    expect((await t.api.delete(`/automations/${made.id}`, { key: BOOTSTRAP_KEY })).status).toBe(204);
    expect((await t.api.delete(`/workspaces/${workspace.id}`, { key: BOOTSTRAP_KEY })).status).toBe(204);
  });

  it('works with the npm SDK unchanged: create, list, find, update, manual run, runs, delete', async () => {
    Files.setBaseUrl(t.baseUrl);
    Files.setApiKey(s.admin1.key);
    Files.setLogLevel(LogLevel.NONE);
    const name = unique('Sdk');
    const made = await SdkAutomation.create({ automation: 'copy_file', name, destinations: ['sdk/'], user_ids: `${s.member1.user.id}`, trigger: 'manual' });
    expect(made.attributes).toMatchObject({ name, automation: 'copy_file', destinations: ['sdk/'], user_ids: [s.member1.user.id] });
    const listed = await SdkAutomation.list({ per_page: 100 });
    expect(listed.map((a: { attributes: { id: number } }) => a.attributes.id)).toContain(made.attributes.id);
    const found = await SdkAutomation.find(made.attributes.id);
    expect(found.attributes.name).toBe(name);
    const updated = await found.update({ description: 'by the SDK', automation: 'copy_file' });
    expect(updated.attributes.description).toBe('by the SDK');
    await found.manualRun();
    const runs = await SdkAutomationRun.list({ automation_id: made.attributes.id });
    expect(runs.map((run: { attributes: { status: string } }) => run.attributes.status)).toEqual(['queued']);
    await found.delete();
    expect((await t.api.get(`/automations/${made.attributes.id}`, { key: s.admin1.key })).status).toBe(404);
  });
});
