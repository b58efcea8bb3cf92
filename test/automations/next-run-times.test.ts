import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { unique } from '../support/factories.js';
import { buildSite, type SiteFixture } from '../support/site-fixture.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * `next_run_times`, Atrium's own read-only field of an automation (docs/automations.md#fields):
 * the next five due times of a `daily` or `custom_schedule` automation, counted from the server's
 * clock in the schedule's time zone, and none for the other triggers or a disabled automation.
 * The app's clock is a TestClock, set to fixed instants here.
 */
describe.each(testDatabaseTargets())('next run times of automations [$name]', (target) => {
  let t: TestApp;
  let s: SiteFixture;
  beforeAll(async () => {
    t = await startTestApp(target);
    s = await buildSite(t);
  });
  afterAll(() => t.close());

  /** Sets the app's clock to `iso` (it only moves forward, so the cases below go in time order). */
  const setClock = (iso: string) => {
    const to = Date.parse(iso);
    expect(to).toBeGreaterThanOrEqual(t.clock.now());
    t.clock.advance(to - t.clock.now());
  };
  const create = (body: Record<string, unknown>) => t.api.post('/automations', { name: unique('Sched'), automation: 'copy_file', destinations: ['out/'], ...body }, { key: s.admin1.key });
  const show = (id: number) => t.api.get(`/automations/${id}`, { key: s.admin1.key });

  it('a daily automation: the next five days at its time, in its zone, on create, show and list alike', async () => {
    setClock('2026-01-01T00:00:00Z');
    const made = await create({ trigger: 'daily', interval: 'day', schedule_times_of_day: ['09:00'] });
    expect(made.status).toBe(201);
    const expected = ['2026-01-01T09:00:00Z', '2026-01-02T09:00:00Z', '2026-01-03T09:00:00Z', '2026-01-04T09:00:00Z', '2026-01-05T09:00:00Z'];
    expect(made.body.next_run_times).toEqual(expected);
    expect((await show(made.body.id)).body.next_run_times).toEqual(expected);
    const listed = await t.api.get('/automations', { key: s.admin1.key });
    expect(listed.status).toBe(200);
    expect(listed.body.find((a: { id: number }) => a.id === made.body.id).next_run_times).toEqual(expected);

    // Once its first time has passed, the list moves on by one.
    setClock('2026-01-01T09:00:00Z');
    expect((await show(made.body.id)).body.next_run_times).toEqual([...expected.slice(1), '2026-01-06T09:00:00Z']);
  });

  it('a custom schedule in a named zone: its days of the week and times, as UTC instants', async () => {
    setClock('2026-01-02T00:00:00Z');
    // Monday and Wednesday at 06:30 and 14:30 in New York (UTC-5 in January); 2026-01-02 is a Friday.
    const made = await create({
      trigger: 'custom_schedule', schedule_days_of_week: [1, 3], schedule_times_of_day: ['14:30', '06:30'], schedule_time_zone: 'Eastern Time (US & Canada)',
    });
    expect(made.status).toBe(201);
    expect(made.body.next_run_times).toEqual([
      '2026-01-05T11:30:00Z', '2026-01-05T19:30:00Z', '2026-01-07T11:30:00Z', '2026-01-07T19:30:00Z', '2026-01-12T11:30:00Z',
    ]);
  });

  it('keeps the wall-clock time across a daylight saving change', async () => {
    // London moves to summer time on Sunday 2026-03-29: 09:00 there is 09:00Z before, 08:00Z after.
    setClock('2026-03-27T12:00:00Z');
    const made = await create({ trigger: 'daily', schedule_times_of_day: ['09:00'], schedule_time_zone: 'London' });
    expect(made.body.next_run_times).toEqual([
      '2026-03-28T09:00:00Z', '2026-03-29T08:00:00Z', '2026-03-30T08:00:00Z', '2026-03-31T08:00:00Z', '2026-04-01T08:00:00Z',
    ]);
  });

  it('a monthly interval counts months, the last day standing in for a day a month lacks', async () => {
    setClock('2026-04-01T00:00:00Z');
    const made = await create({ trigger: 'daily', interval: 'month', recurring_day: 31 });
    expect(made.body.next_run_times).toEqual([
      '2026-04-30T00:00:00Z', '2026-05-31T00:00:00Z', '2026-06-30T00:00:00Z', '2026-07-31T00:00:00Z', '2026-08-31T00:00:00Z',
    ]);
  });

  it('is empty for the triggers that are not a schedule', async () => {
    for (const body of [
      { trigger: 'action', trigger_actions: ['create'], path: 'inbox/*' },
      { trigger: 'webhook' },
      { trigger: 'manual' },
      {},
    ]) {
      const made = await create(body);
      expect({ body, status: made.status, next_run_times: made.body.next_run_times }).toEqual({ body, status: 201, next_run_times: [] });
    }
  });

  it('is empty while the automation is disabled, and back when it is enabled again', async () => {
    setClock('2026-05-01T10:00:00Z');
    const made = await create({ trigger: 'daily', interval: 'week', recurring_days: [0], schedule_times_of_day: ['08:15'], disabled: true });
    expect([made.status, made.body.next_run_times]).toEqual([201, []]);
    const enabled = await t.api.patch(`/automations/${made.body.id}`, { disabled: false }, { key: s.admin1.key });
    expect(enabled.status).toBe(200);
    // Sundays at 08:15 UTC; 2026-05-01 is a Friday.
    expect(enabled.body.next_run_times).toEqual([
      '2026-05-03T08:15:00Z', '2026-05-10T08:15:00Z', '2026-05-17T08:15:00Z', '2026-05-24T08:15:00Z', '2026-05-31T08:15:00Z',
    ]);
    // It is read-only: sent back (as the SDK's save() sends every attribute), it changes nothing.
    const sentBack = await t.api.patch(`/automations/${made.body.id}`, { next_run_times: ['2030-01-01T00:00:00Z'] }, { key: s.admin1.key });
    expect([sentBack.status, sentBack.body.next_run_times]).toEqual([200, enabled.body.next_run_times]);
    // Changing the trigger away from a schedule empties it.
    const manual = await t.api.patch(`/automations/${made.body.id}`, { trigger: 'manual' }, { key: s.admin1.key });
    expect([manual.status, manual.body.next_run_times]).toEqual([200, []]);
  });
});
