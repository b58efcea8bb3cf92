import os from 'node:os';
import { measure, probe, type Measurement, type Timing } from './measure.js';
import type { BenchOptions } from './options.js';
import { bigFolderPage, explainMember, folderListing, foldersProbe, HELLO, login, permissionsOfMember, usersAsMember, usersByEveryUser, type Scenario } from './scenarios.js';
import { MEMBER_GRANTS_PAGE } from './seed/grant-plan.js';
import { finishSeeding, growGrants, seedSite, type SeededSite } from './seed/seed-site.js';
import { auditBench, type RunScenario } from './audit/audit-bench.js';
import type { RecordingCost } from './audit/recording-cost.js';
import { undoOnInterrupt } from './cleanup.js';
import type { Transfer } from './transfer.js';
import type { DigestCost } from './transfers/digest-cost.js';
import { webdavBench } from './webdav/webdav-bench.js';
import { automationsBench } from './automations/automations-bench.js';
import { searchBench, type SearchLatency } from './search/search-bench.js';
import { largeSiteBench } from './large-site/large-bench.js';
import { sftpBench } from './sftp/sftp-bench.js';
import { transfersBench } from './transfers/transfers-bench.js';
import { workersBench } from './workers/workers-bench.js';
import { wrkCommand } from './workers/wrk-load.js';
import { coldBench } from './cold/cold-bench.js';
import { consoleBench } from './console/console-bench.js';
import { startFloor } from './hot-path-floor.js';
import type { PageTiming } from './console/page-figures.js';
import { ATRIUM_MAIN, BASELINE_MAIN, startServer, type ServerProcess } from './server-process.js';
import { postgresStore, sqliteStore, type BenchStore, type StoreName } from './stores.js';

export type RowKind = 'main' | 'activity' | 'floor' | 'grant-growth' | 'folder-growth' | 'access-log' | 'cold' | 'audit' | 'history-growth' | 'webdav' | 'sftp' | 'transfers' | 'workers' | 'console' | 'automations' | 'search' | 'large-site';

export interface ResultRow {
  kind: RowKind;
  database: 'baseline' | StoreName;
  scenario: string;
  grants?: number;
  folderSize?: number;
  /** Records in History, for the history-growth series. */
  historyRecords?: number;
  /** The cold section: after a write from another connection (every cache empty), or with none. */
  cache?: 'cold' | 'warm';
  /** `action` automations watching other folders (the automations section). */
  automations?: number;
  /** The trigger index's look-up for an upload no automation watches, in the bench's process: with none, and with `automations` watching elsewhere. */
  triggerLookup?: { noneMicros: number; watchingMicros: number };
  /** Server processes serving (the workers section: 1, or 2 workers under a primary). */
  workers?: number;
  /** What drove the load when it was not autocannon in the bench's process (the workers section: wrk). */
  loadGenerator?: string;
  measurement?: Measurement;
  /** What appending one History record costs (measured in the bench process, not under load). */
  recordingCost?: RecordingCost;
  /** One large upload or download (the WebDAV, SFTP and transfers sections). */
  transfer?: Transfer;
  /** The extra digests' cost on an upload's bytes against sha256 alone (the transfers section). */
  digestCost?: DigestCost;
  /** A page's timing in Chromium over the rounds (the console section). */
  pageTiming?: PageTiming;
  /** What the page's timing should stay under (the console section). */
  budgetMs?: number;
  /** Requests per second as a fraction of the baseline's (the faster of its two runs). */
  ratioToBaseline?: number;
  /** Searches timed one at a time (the search section). */
  searchLatency?: SearchLatency;
  /** The large-site section: which of its two sites the row is on. */
  site?: 'large' | 'small';
  /** The large-site section: how long its seed took, its size on disk, and what it holds. */
  seed?: { seconds: number; bytes: number; users: number; groups: number; grants: number; folders: number; files: number; history: number };
  /** Why there is no measurement. */
  skipped?: string;
  /** The scenario's answer was wrong: no figure is given for it. */
  error?: string;
}

export interface BenchReport {
  startedAt: string;
  seconds: number;
  machine: { cpus: number; cpuModel: string; memoryGb: number; node: string };
  settings: { quick: boolean; connections: number; pipelining: number; timing: Timing; growthTiming: Timing; atriumEnv: Record<string, string> };
  site: BenchOptions['site'] & { folderSizes: number[]; grantSteps: number[] };
  rows: ResultRow[];
  notes: string[];
}

/** Atrium as the bench runs it: per-request logging off (see docs/benchmarks.md for its cost). */
const ATRIUM_ENV = { ATRIUM_LOG_LEVEL: 'info', ATRIUM_ACCESS_LOG: 'false' };

/** The whole run: baseline, then per database the seeded site, the growth series and the scenarios. */
export async function runBench(options: BenchOptions, progress: (line: string) => void): Promise<BenchReport> {
  const started = Date.now();
  const report: BenchReport = {
    startedAt: new Date(started).toISOString(),
    seconds: 0,
    machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? 'unknown', memoryGb: Math.round(os.totalmem() / 2 ** 30), node: process.version },
    settings: { quick: options.quick, ...options.load, timing: options.timing, growthTiming: options.growthTiming, atriumEnv: ATRIUM_ENV },
    site: { ...options.site, folderSizes: options.folderSizes, grantSteps: options.grantSteps },
    rows: [],
    notes: [],
  };
  const record = (row: ResultRow) => {
    report.rows.push(row);
    progress(describe(row));
  };

  const baselineRps = [await measureBaseline(options, record, 'start')];
  // Only these sections use the seeded site; the others (WebDAV, transfers, workers, SFTP) make their own.
  const seeds = SEEDED_SECTIONS.some((section) => options.sections.has(section));
  for (const name of options.databases) {
    if (seeds && !(await benchSeededSite(name, options, record, progress, report))) continue;
    if (options.sections.has('webdav')) {
      await webdavBench({
        database: name, postgresUrl: options.postgresUrl, ...options.webdav, timing: options.timing,
        connections: options.load.connections, atriumEnv: ATRIUM_ENV, nodeArgs: options.atriumNodeArgs,
      }, record, progress);
    }
    if (options.sections.has('transfers')) {
      await transfersBench({
        database: name, postgresUrl: options.postgresUrl, ...options.transfers, atriumEnv: ATRIUM_ENV, nodeArgs: options.atriumNodeArgs,
      }, record, progress);
    }
    if (options.sections.has('automations')) {
      await automationsBench({
        database: name, postgresUrl: options.postgresUrl, ...options.automations, timing: options.timing,
        connections: options.load.connections, atriumEnv: ATRIUM_ENV, nodeArgs: options.atriumNodeArgs,
      }, record, progress);
    }
    if (options.sections.has('search')) {
      await searchBench({ database: name, postgresUrl: options.postgresUrl, ...options.search, atriumEnv: ATRIUM_ENV, nodeArgs: options.atriumNodeArgs }, record, progress);
    }
    if (options.sections.has('workers')) {
      await workersBench({
        database: name, postgresUrl: options.postgresUrl, site: options.site, load: options.load, timing: { ...options.timing, repeats: options.quick ? 1 : 2 },
        atriumEnv: ATRIUM_ENV, nodeArgs: options.atriumNodeArgs, withBaseline: name === options.databases[0], wrk: wrkCommand(process.env),
      }, record, progress);
    }
  }
  // The large site on PostgreSQL only, whatever BENCH_DATABASES says: its seed is PostgreSQL's own SQL.
  if (options.sections.has('large')) {
    await largeSiteBench({ postgresUrl: options.postgresUrl, ...options.large, load: options.load, timing: options.timing, atriumEnv: ATRIUM_ENV, nodeArgs: options.atriumNodeArgs }, record, progress);
  }
  // SFTP once, on the first database: its comparison is with OpenSSH's server, which has none.
  const sftpDatabase = options.databases[0];
  if (sftpDatabase !== undefined && options.sections.has('sftp')) {
    await sftpBench({ database: sftpDatabase, postgresUrl: options.postgresUrl, ...options.sftp, timing: options.timing, atriumEnv: ATRIUM_ENV, nodeArgs: options.atriumNodeArgs }, record, progress);
  }
  // The console once, on SQLite: its figures are the browser's work, the database's choice hardly shows.
  if (options.sections.has('console')) {
    await consoleBench({ ...options.console, atriumEnv: ATRIUM_ENV, nodeArgs: options.atriumNodeArgs }, record, progress, (text) => {
      report.notes.push(text);
      progress(text);
    });
  }
  // The machine's other work moves the baseline too: it is measured at both ends of the run and
  // every ratio uses the faster of the two, so a slow moment never flatters Atrium.
  baselineRps.push(await measureBaseline(options, record, 'end'));
  const best = Math.max(...baselineRps);
  for (const row of report.rows) {
    if (row.database !== 'baseline' && row.measurement !== undefined && best > 0) row.ratioToBaseline = row.measurement.requestsPerSecond / best;
  }
  report.seconds = Math.round((Date.now() - started) / 1000);
  return report;
}

const SEEDED_SECTIONS = ['main', 'growth', 'cold', 'history'] as const;

/**
 * The sections on the seeded site, on a fresh database of that kind, dropped afterwards. False
 * when PostgreSQL does not answer: its other sections are skipped too.
 */
async function benchSeededSite(name: StoreName, options: BenchOptions, record: (row: ResultRow) => void, progress: (line: string) => void, report: BenchReport): Promise<boolean> {
  const store = name === 'sqlite' ? await sqliteStore() : await postgresStore(options.postgresUrl);
  if (store === undefined) {
    report.notes.push(`PostgreSQL did not answer at ${options.postgresUrl}: its scenarios were not run.`);
    progress(report.notes.at(-1) as string);
    return false;
  }
  const forget = undoOnInterrupt(() => store.destroy());
  try {
    await benchStore(store, options, record, progress);
  } finally {
    forget();
    await store.destroy();
  }
  return true;
}

async function measureBaseline(options: BenchOptions, record: (row: ResultRow) => void, when: 'start' | 'end'): Promise<number> {
  const baseline = await startServer(BASELINE_MAIN, {}, '/');
  try {
    const row = await run(baseline, { ...HELLO, name: `${HELLO.name} (${when} of run)` }, options, options.timing, { kind: 'main', database: 'baseline' }, false);
    record(row);
    return row.measurement?.requestsPerSecond ?? 0;
  } finally {
    await baseline.stop();
  }
}

async function benchStore(
  store: BenchStore,
  options: BenchOptions,
  record: (row: ResultRow) => void,
  progress: (line: string) => void,
): Promise<void> {
  const database = store.name;
  const writer = await store.openWriter();
  const steps: { grants: number; env: Record<string, string> }[] = [];
  let site: SeededSite;
  // The main scenarios probe the folder endpoints; without them (BENCH_SECTIONS) they are taken to be there.
  let foldersLand = !options.sections.has('main');
  let audit: { env: Record<string, string>; ids: { groupId: number; grantId: number } } | undefined;
  try {
    let seededAt = Date.now();
    site = await seedSite(writer, options.site, options.folderSizes);
    for (const step of options.grantSteps) {
      await growGrants(writer, site, step);
      await finishSeeding(writer);
      progress(`${database}: site seeded with ${step.toLocaleString('en')} grants in ${((Date.now() - seededAt) / 1000).toFixed(1)} s`);
      if (step === options.site.grants && options.sections.has('main')) {
        foldersLand = await mainAndLoggedScenarios(store, site, options, record);
      }
      if (step === options.site.grants && options.sections.has('cold')) {
        await coldBench(site, { database, atriumEnv: { ...store.atriumEnv, ...ATRIUM_ENV }, nodeArgs: options.atriumNodeArgs, ...options.cold }, record);
      }
      if (step === options.site.grants && options.sections.has('history')) {
        // A copy for History and access review, whose scenarios write: the others never see it.
        const { workspaces, groupsPerWorkspace } = options.site;
        audit = { env: await store.snapshot('audit'), ids: { groupId: workspaces * groupsPerWorkspace + 1, grantId: site.grants + 1 } };
      }
      if (options.sections.has('growth')) steps.push({ grants: step, env: await store.snapshot(`g${step}`) });
      seededAt = Date.now();
    }
  } finally {
    await writer.close();
  }
  if (options.sections.has('growth')) await growthSeries(store, site, steps, { database, foldersLand, options }, record);
  if (audit !== undefined) {
    const runScenario: RunScenario = (server, scenario, timing, row, connections) =>
      run(server, scenario, connections === undefined ? options : { ...options, load: { ...options.load, connections } }, timing, row, database === 'postgres');
    await auditBench({ ...site, grants: options.site.grants }, {
      database, env: audit.env, ids: audit.ids, timing: options.timing, growthTiming: options.growthTiming,
      historySteps: options.historySteps, recordingEvents: options.recordingEvents, atriumEnv: ATRIUM_ENV, nodeArgs: options.atriumNodeArgs,
    }, runScenario, record);
  }
}

/** The main scenarios on the site at `site.grants`, then the hot path as shipped against its floor. */
async function mainAndLoggedScenarios(store: BenchStore, site: SeededSite, options: BenchOptions, record: (row: ResultRow) => void): Promise<boolean> {
  const database = store.name;
  const atrium = await startServer(ATRIUM_MAIN, { ...store.atriumEnv, ...ATRIUM_ENV }, '/health', options.atriumNodeArgs);
  let foldersLand: boolean;
  try {
    foldersLand = (await probe(atrium.baseUrl, foldersProbe(site))).status !== 404;
    await mainScenarios(atrium, site, { database, foldersLand, options }, record);
  } finally {
    await atrium.stop();
  }
  await hotPathAgainstFloor(store, site, { database, foldersLand, options }, record);
  return foldersLand;
}

/**
 * The key-authenticated listing and `GET /users` as shipped (the access log on) against their
 * floor (hot-path-floor.ts: the same answers after the same key check in bare Fastify, plus on
 * PostgreSQL one read of the data version per turn). The two servers take turns, scenario by
 * scenario, for `hotPathRounds` rounds, and each row keeps its lowest cost: the machine's other
 * work then falls on both alike, and the ratio compares like with like.
 */
async function hotPathAgainstFloor(store: BenchStore, site: SeededSite, ctx: StoreContext, record: (row: ResultRow) => void): Promise<void> {
  const { database, options } = ctx;
  const scenarios = [...(ctx.foldersLand ? [folderListing(site, 'key')] : []), usersAsMember(site)];
  const atrium = await startServer(ATRIUM_MAIN, { ...store.atriumEnv, ...ATRIUM_ENV, ATRIUM_ACCESS_LOG: 'true' }, '/health', options.atriumNodeArgs);
  try {
    const floor = await startFloor(atrium.baseUrl, scenarios, database === 'postgres' ? store.atriumEnv.ATRIUM_DATABASE_URL : undefined);
    try {
      const best = new Map<string, ResultRow>();
      const keep = (row: ResultRow) => {
        const key = `${row.kind} ${row.scenario}`;
        const kept = best.get(key);
        if (kept === undefined || keepsLower(kept, row)) best.set(key, row);
      };
      const once = { ...options.timing, repeats: 1 };
      for (let round = 0; round < options.hotPathRounds; round += 1) {
        for (const [i, scenario] of scenarios.entries()) {
          keep(await run(atrium, scenario, options, once, { kind: 'access-log', database, grants: site.grants }, database === 'postgres'));
          keep(await run(floor.server, floor.scenarios[i] as Scenario, options, once, { kind: 'floor', database, grants: site.grants }, database === 'postgres'));
        }
      }
      for (const row of best.values()) record(row);
    } finally {
      await floor.server.stop();
    }
  } finally {
    await atrium.stop();
  }
}

/**
 * The cost of a check and of a listing at each step of the site's growth. The steps are measured
 * in turns, `growthTiming.repeats` rounds over copies of the site at each step, each point keeping
 * its lowest CPU per request: the machine's other work then falls on every step alike instead of
 * on whichever step came last.
 */
async function growthSeries(
  store: BenchStore,
  site: SeededSite,
  steps: readonly { grants: number; env: Record<string, string> }[],
  ctx: StoreContext,
  record: (row: ResultRow) => void,
): Promise<void> {
  const scenarios = [usersAsMember(site), explainMember(site), permissionsOfMember(site, MEMBER_GRANTS_PAGE), folderListing(site, 'key')];
  const best = new Map<string, ResultRow>();
  const once = { ...ctx.options.growthTiming, repeats: 1 };
  for (let round = 0; round < (ctx.options.growthTiming.repeats ?? 1); round += 1) {
    for (const step of steps) {
      const atrium = await startServer(ATRIUM_MAIN, { ...step.env, ...ATRIUM_ENV }, '/health', ctx.options.atriumNodeArgs);
      try {
        for (const scenario of scenarios) {
          const row = await runIn(atrium, scenario, once, { kind: 'grant-growth', database: store.name, grants: step.grants }, ctx);
          const key = `${step.grants}\u0000${scenario.name}`;
          const kept = best.get(key);
          if (kept === undefined || keepsLower(kept, row)) best.set(key, row);
        }
      } finally {
        await atrium.stop();
      }
    }
  }
  for (const step of steps) for (const scenario of scenarios) record(best.get(`${step.grants}\u0000${scenario.name}`) as ResultRow);
}

interface StoreContext {
  database: StoreName;
  foldersLand: boolean;
  options: BenchOptions;
}

async function mainScenarios(atrium: ServerProcess, site: SeededSite, ctx: StoreContext, record: (row: ResultRow) => void): Promise<void> {
  const main = { kind: 'main' as const, database: ctx.database, grants: site.grants };
  for (const scenario of [folderListing(site, 'key'), folderListing(site, 'session'), usersAsMember(site), permissionsOfMember(site), explainMember(site), login(site)]) {
    record(await runIn(atrium, scenario, ctx.options.timing, main, ctx));
  }
  // Activity recording: the writing load first, with no warm-up and one round (a warm-up or a
  // second round would record every user and write nothing), then the same load with nothing to
  // write. The server is warm from the scenarios above.
  const oneRound = { ...ctx.options.timing, warmupSeconds: 0, repeats: 1 };
  record(await runIn(atrium, usersByEveryUser(site, 'writing'), oneRound, { ...main, kind: 'activity' }, ctx));
  record(await runIn(atrium, usersByEveryUser(site, 'recorded'), oneRound, { ...main, kind: 'activity' }, ctx));
  // The folder sizes in turns, like the grant steps (growthSeries), each keeping its lowest cost.
  const best = new Map<number, ResultRow>();
  const once = { ...ctx.options.growthTiming, repeats: 1 };
  for (let round = 0; round < (ctx.options.growthTiming.repeats ?? 1); round += 1) {
    for (const size of ctx.options.folderSizes) {
      const row = await runIn(atrium, bigFolderPage(site, size, 100), once, { kind: 'folder-growth', database: ctx.database, grants: site.grants, folderSize: size }, ctx);
      const kept = best.get(size);
      if (kept === undefined || keepsLower(kept, row)) best.set(size, row);
    }
  }
  for (const size of ctx.options.folderSizes) record(best.get(size) as ResultRow);
}

/** Whether `row` should replace `kept` as a point's figure: an error always shows, else the lower cost. */
function keepsLower(kept: ResultRow, row: ResultRow): boolean {
  if (kept.error !== undefined) return false;
  if (row.error !== undefined) return true;
  return (row.measurement?.cpuMicrosPerRequest ?? Infinity) < (kept.measurement?.cpuMicrosPerRequest ?? Infinity);
}

async function runIn(server: ServerProcess, scenario: Scenario, timing: Timing, row: Omit<ResultRow, 'scenario'>, ctx: StoreContext): Promise<ResultRow> {
  if (scenario.needsFolders === true && !ctx.foldersLand) {
    return { ...row, scenario: scenario.name, skipped: 'the folder endpoints are not in this build yet' };
  }
  return run(server, scenario, ctx.options, timing, row, ctx.database === 'postgres');
}

async function run(server: ServerProcess, scenario: Scenario, options: BenchOptions, timing: Timing, row: Omit<ResultRow, 'scenario'>, withDatabaseCpu: boolean): Promise<ResultRow> {
  const answer = await probe(server.baseUrl, scenario.request);
  const error = scenario.check(answer.status, answer.body);
  if (error !== undefined) return { ...row, scenario: scenario.name, error };
  const measurement = await measure(server, scenario.request, options.load, timing, withDatabaseCpu);
  if (measurement.failed > 0) return { ...row, scenario: scenario.name, measurement, error: `${measurement.failed} requests failed under load` };
  return { ...row, scenario: scenario.name, measurement };
}

function describe(row: ResultRow): string {
  let where = [row.database, row.grants === undefined ? '' : `${row.grants} grants`, row.folderSize === undefined ? '' : `folder of ${row.folderSize}`,
    row.historyRecords === undefined ? '' : `${row.historyRecords} History records`].filter((s) => s !== '').join(', ');
  if (row.site !== undefined) where += `, ${row.site} site`;
  if (row.cache !== undefined) where += `, ${row.cache}`;
  if (row.skipped !== undefined) return `${where}: ${row.scenario}: skipped (${row.skipped})`;
  if (row.error !== undefined) return `${where}: ${row.scenario}: ERROR ${row.error}`;
  if (row.kind === 'transfers' && row.measurement !== undefined) return `${where}: ${row.scenario}: p50 ${row.measurement.p50Ms.toFixed(1)} ms, p99 ${row.measurement.p99Ms.toFixed(1)} ms`;
  if (row.transfer !== undefined) return `${where}: ${row.scenario}: ${row.transfer.mibPerSecond.toFixed(0)} MiB/s, ${row.transfer.cpuMsPerMib.toFixed(2)} ms CPU/MiB`;
  if (row.pageTiming !== undefined) return `${where}: ${row.scenario}: median ${row.pageTiming.medianMs.toFixed(0)} ms, worst ${row.pageTiming.worstMs.toFixed(0)} ms`;
  if (row.digestCost !== undefined) return `${where}: ${row.scenario}: ${row.digestCost.ratio.toFixed(2)}× (${row.digestCost.allMsPerMib.toFixed(2)} / ${row.digestCost.sha256MsPerMib.toFixed(2)} ms/MiB)`;
  if (row.recordingCost !== undefined) return `${where}: ${row.scenario}: ${row.recordingCost.appMicros.toFixed(1)} µs CPU, ${row.recordingCost.databaseMicros.toFixed(1)} µs database CPU`;
  if (row.triggerLookup !== undefined) return `${where}: ${row.scenario}: ${row.triggerLookup.watchingMicros.toFixed(2)} µs CPU with ${row.automations ?? '?'} automations, ${row.triggerLookup.noneMicros.toFixed(2)} µs with none`;
  if (row.seed !== undefined) return `${where}: seeded in ${row.seed.seconds.toFixed(1)} s, ${(row.seed.bytes / 2 ** 30).toFixed(2)} GiB`;
  if (row.searchLatency !== undefined) return `${where}: ${row.scenario}: median ${row.searchLatency.medianMs.toFixed(1)} ms, p90 ${row.searchLatency.p90Ms.toFixed(1)} ms`;
  const m = row.measurement as Measurement;
  return `${where}: ${row.scenario}: ${m.requestsPerSecond.toFixed(0)} req/s, ${m.cpuMicrosPerRequest.toFixed(0)} µs CPU/req`;
}
