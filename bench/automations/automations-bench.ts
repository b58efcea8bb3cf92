import http from 'node:http';
import { undoOnInterrupt } from '../cleanup.js';
import { measureLoad, type LoadOutcome, type Measurement, type Timing } from '../measure.js';
import type { ResultRow } from '../run-bench.js';
import { seedSmallSite } from '../seed/small-site.js';
import { ATRIUM_MAIN, startServer, type ServerProcess } from '../server-process.js';
import { postgresStore, sqliteStore, type StoreName } from '../stores.js';
import { sendOnce } from '../webdav/http-loop.js';

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
      await api.deleteAutomations([...made, hot]);
      if (round % 2 === 1) await withNone();
    }
    const base = { kind: 'automations' as const, database, automations: ctx.automations };
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

/** Uploads into `folder`, each a new file, under a closed loop of the run's connections. */
async function uploads(server: ServerProcess, api: Api, folder: string, ctx: AutomationsBenchContext): Promise<Measurement> {
  const probe = await api.upload(`${folder}/probe.txt`);
  if (probe.status !== 201) throw new Error(`an upload answered ${probe.status} ${probe.text.slice(0, 200)}`);
  let sequence = 0;
  const next = () => `${folder}/f${(sequence += 1)}.txt`;
  return measureLoad(server, (seconds) => uploadLoop(api, next, ctx.connections, seconds), ctx.timing, ctx.database === 'postgres');
}

async function uploadLoop(api: Api, next: () => string, connections: number, seconds: number): Promise<LoadOutcome> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let failed = 0;
  const started = performance.now();
  const end = started + seconds * 1000;
  const loop = async () => {
    while (performance.now() < end) {
      const sent = performance.now();
      const answer = await api.upload(next(), agent).catch(() => ({ status: 0 }));
      if (answer.status === 201) latencies.push(performance.now() - sent);
      else failed += 1;
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { ok: latencies.length, failed, seconds: (performance.now() - started) / 1000, p50Ms: at(0.5), p99Ms: at(0.99) };
}

/** The few REST calls the section makes, as the Workspace Administrator. */
class Api {
  private readonly headers: Record<string, string>;

  constructor(private readonly baseUrl: string, key: string) {
    this.headers = { 'X-ServiceAPI-Key': key };
  }

  upload(path: string, agent?: http.Agent) {
    return sendOnce(this.baseUrl, { method: 'PUT', path: `${API}/files/${path}`, headers: this.headers, body: BODY }, agent);
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

  async deleteAutomations(ids: readonly number[]): Promise<void> {
    for (const id of ids) {
      const deleted = await sendOnce(this.baseUrl, { method: 'DELETE', path: `${API}/automations/${id}`, headers: this.headers });
      if (deleted.status !== 204) throw new Error(`deleting an automation answered ${deleted.status} ${deleted.text.slice(0, 200)}`);
    }
  }
}
