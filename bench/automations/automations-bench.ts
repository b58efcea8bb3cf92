import { undoOnInterrupt } from '../cleanup.js';
import { measureLoad, type Measurement, type Timing } from '../measure.js';
import type { ResultRow } from '../run-bench.js';
import { seedSmallSite } from '../seed/small-site.js';
import { ATRIUM_MAIN, startServer, type ServerProcess } from '../server-process.js';
import { postgresStore, sqliteStore, type StoreName } from '../stores.js';
import { closedLoop, sendOnce } from '../webdav/http-loop.js';
import { ActionWatchIndex, actionWatchOf } from '../../src/automations/index.js';

export interface AutomationsBenchContext {
  database: StoreName;
  postgresUrl: string;
  /** `action` automations watching other folders (1,000). */
  automations: number;
  /** Rounds of the comparison; each figure keeps its best round. */
  rounds: number;
  timing: Timing;
  connections: number;
  atriumEnv: Record<string, string>;
  nodeArgs: readonly string[];
}

const API = '/api/rest/v1';
/** What each upload carries: a small file, so that the request's own work is what is measured, not its bytes. */
const BODY = 'x'.repeat(1024);

/** The scenarios' names, as the report finds them. */
export const AUTOMATION_SCENARIOS = {
  none: 'upload (PUT /files/<path>, 1 KiB), no automation',
  others: (count: number) => `upload (PUT /files/<path>, 1 KiB), ${count.toLocaleString('en')} action automations watching other folders`,
  watched: 'upload (PUT /files/<path>, 1 KiB) into a watched folder: queues a run',
} as const;

/**
 * What the `action` trigger costs an upload (docs/benchmarks.md): the CPU of an upload into a
 * folder no automation watches, with none and with `automations` watching other folders of the
 * same Workspace, round after round on one server (the automations are deleted and made again
 * between rounds); and an upload into a watched folder, which queues a run. Every upload is a new
 * file in a folder of its own for that measurement.
 */
export async function automationsBench(ctx: AutomationsBenchContext, record: (row: ResultRow) => void, progress: (line: string) => void): Promise<void> {
  const { database } = ctx;
  const store = database === 'sqlite' ? await sqliteStore() : await postgresStore(ctx.postgresUrl);
  if (store === undefined) return progress(`automations: PostgreSQL did not answer at ${ctx.postgresUrl}`);
  const forget = undoOnInterrupt(() => store.destroy());
  let server: ServerProcess | undefined;
  try {
    const site = await seedSmallSite(store);
    server = await startServer(ATRIUM_MAIN, { ...store.atriumEnv, ...ctx.atriumEnv }, '/health', ctx.nodeArgs);
    const api = new Api(server.baseUrl, site.workspaceAdmin.key);
    const best = new Map<string, Measurement>();
    const keep = (scenario: string, measured: Measurement) => {
      const kept = best.get(scenario);
      if (kept === undefined || measured.cpuMicrosPerRequest < kept.cpuMicrosPerRequest) best.set(scenario, measured);
    };
    const others = AUTOMATION_SCENARIOS.others(ctx.automations);
    for (let round = 0; round < ctx.rounds; round += 1) {
      // Every upload makes the site bigger: the rounds take turns at which state goes first.
      const withNone = async () => keep(AUTOMATION_SCENARIOS.none, await uploads(server as ServerProcess, api, `plain-${round}-none`, ctx));
      if (round % 2 === 0) await withNone();
      const made = await api.makeWatchers(ctx.automations, round);
      progress(`automations on ${database}: ${made.length} action automations made (round ${round + 1})`);
      keep(others, await uploads(server, api, `plain-${round}-others`, ctx));
      // The watched folder's automation is one more: its runs are left to the node's runner.
      const hot = await api.makeAutomation({ path: `hot-${round}`, trigger_actions: ['create'] });
      keep(AUTOMATION_SCENARIOS.watched, await uploads(server, api, `hot-${round}`, ctx));
      const queued = await api.runsOf(hot);
      if (queued === 0) throw new Error('the uploads into the watched folder queued no run');
      // The node's runner carries the queued runs out after the load: they must be done before the
      // next measurement, whose CPU they would otherwise add to.
      await api.untilRunsEnd(hot);
      await api.deleteAutomations([...made, hot]);
      if (round % 2 === 1) await withNone();
    }
    const base = { kind: 'automations' as const, database, automations: ctx.automations };
    record({ ...base, scenario: TRIGGER_LOOKUP, triggerLookup: measureTriggerLookup(ctx.automations) });
    for (const scenario of [AUTOMATION_SCENARIOS.none, others, AUTOMATION_SCENARIOS.watched]) {
      const measurement = best.get(scenario) as Measurement;
      record({ ...base, scenario, measurement, ...(measurement.failed > 0 ? { error: `${measurement.failed} uploads failed under load` } : {}) });
    }
  } catch (error) {
    record({ kind: 'automations', database, scenario: 'automations section', error: (error as Error).message });
  } finally {
    await server?.stop();
    forget();
    await store.destroy();
  }
}

/** The scenario of the in-process measurement of the trigger's own work. */
export const TRIGGER_LOOKUP = 'the trigger index\'s look-up for an upload no automation watches (in process)';

/**
 * What the `action` trigger adds to an upload into a folder no automation watches, measured
 * alone: an upload asks the index which automations take its file, and with 1,000 watching other
 * folders it looks in as many folders as the file's path has, as with none. This is the whole of
 * the difference (the change counter is read alike with none), and unlike two loads of uploads on
 * a shared machine it is measured to a fraction of a microsecond. CPU µs per look-up, best of 5.
 */
function measureTriggerLookup(count: number): { noneMicros: number; watchingMicros: number } {
  const shapes = (n: number) => [
    { path: `watched/${n}`, source: null, excludePattern: null },
    { path: `watched/${n}/in/**`, source: '*.csv', excludePattern: null },
    { path: `w${n}/{a,b}`, source: null, excludePattern: '*.tmp' },
  ][n % 3]!;
  const rows = Array.from({ length: count }, (_, n) => ({ id: n + 1, workspaceId: 1, triggerActions: ['create', 'update'], ...shapes(n) }));
  const watching = new ActionWatchIndex(rows.map(actionWatchOf).filter((watch) => watch !== undefined));
  const none = new ActionWatchIndex([]);
  const lookUps = 200_000;
  const timed = (index: ActionWatchIndex) => {
    let best = Infinity;
    for (let round = 0; round < 5; round += 1) {
      const started = process.cpuUsage();
      for (let i = 0; i < lookUps; i += 1) {
        if (index.watchersOf('create', `_/Workspaces/1/plain-0-others/f${i}.txt`).length > 0) throw new Error('an automation watches the unwatched folder');
      }
      const used = process.cpuUsage(started);
      best = Math.min(best, (used.user + used.system) / lookUps);
    }
    return best;
  };
  return { noneMicros: timed(none), watchingMicros: timed(watching) };
}

/** Uploads into `folder`, each a new file, under a closed loop of the run's connections. */
async function uploads(server: ServerProcess, api: Api, folder: string, ctx: AutomationsBenchContext): Promise<Measurement> {
  const probe = await api.upload(`${folder}/probe.txt`);
  if (probe.status !== 201) throw new Error(`an upload answered ${probe.status} ${probe.text.slice(0, 200)}`);
  let sequence = 0;
  const next = () => `${folder}/f${(sequence += 1)}.txt`;
  return measureLoad(server, (seconds) => closedLoop(server.baseUrl, () => api.uploadRequest(next()), ctx.connections, seconds), ctx.timing, ctx.database === 'postgres');
}

/** The few REST calls the section makes, as the Workspace Administrator. */
class Api {
  private readonly headers: Record<string, string>;

  constructor(private readonly baseUrl: string, key: string) {
    this.headers = { 'X-ServiceAPI-Key': key };
  }

  uploadRequest(path: string) {
    return { method: 'PUT', path: `${API}/files/${path}`, headers: this.headers, body: BODY };
  }

  upload(path: string) {
    return sendOnce(this.baseUrl, this.uploadRequest(path));
  }

  async makeAutomation(fields: Record<string, unknown>): Promise<number> {
    const body = JSON.stringify({ automation: 'copy_file', trigger: 'action', destinations: ['copies/'], ...fields });
    const made = await sendOnce(this.baseUrl, { method: 'POST', path: `${API}/automations`, headers: { ...this.headers, 'content-type': 'application/json' }, body });
    if (made.status !== 201) throw new Error(`making an automation answered ${made.status} ${made.text.slice(0, 200)}`);
    return (JSON.parse(made.text) as { id: number }).id;
  }

  /**
   * `count` automations on prefixes spread over the Workspace, none of them an ancestor of the
   * measured folders: `watched/<n>`, `watched/<n>/in/**` with a source, and `w<n>/{a,b}`.
   */
  async makeWatchers(count: number, round: number): Promise<number[]> {
    const ids: number[] = [];
    for (let n = 0; n < count; n += 1) {
      const shapes = [
        { path: `watched/${round}-${n}` },
        { path: `watched/${round}-${n}/in/**`, source: '*.csv' },
        { path: `w${round}-${n}/{a,b}`, exclude_pattern: '*.tmp' },
      ];
      ids.push(await this.makeAutomation({ ...shapes[n % shapes.length], trigger_actions: ['create', 'update'] }));
    }
    return ids;
  }

  async runsOf(id: number): Promise<number> {
    const listed = await sendOnce(this.baseUrl, { method: 'GET', path: `${API}/automation_runs?automation_id=${id}&per_page=1`, headers: this.headers });
    return listed.status === 200 ? (JSON.parse(listed.text) as unknown[]).length : 0;
  }

  /** Waits until no run of the automation is queued or running (the runner polls every 5 s). */
  async untilRunsEnd(id: number): Promise<void> {
    for (;;) {
      const waiting = await Promise.all(['queued', 'running'].map(async (status) => {
        const listed = await sendOnce(this.baseUrl, { method: 'GET', path: `${API}/automation_runs?automation_id=${id}&filter[status]=${status}&per_page=1`, headers: this.headers });
        if (listed.status !== 200) throw new Error(`listing the runs answered ${listed.status} ${listed.text.slice(0, 200)}`);
        return (JSON.parse(listed.text) as unknown[]).length;
      }));
      if (waiting.every((count) => count === 0)) return;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  async deleteAutomations(ids: readonly number[]): Promise<void> {
    for (const id of ids) {
      const deleted = await sendOnce(this.baseUrl, { method: 'DELETE', path: `${API}/automations/${id}`, headers: this.headers });
      if (deleted.status !== 204) throw new Error(`deleting an automation answered ${deleted.status} ${deleted.text.slice(0, 200)}`);
    }
  }
}
