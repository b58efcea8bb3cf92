import { undoOnInterrupt } from '../cleanup.js';
import type { ResultRow } from '../run-bench.js';
import { seedSmallSite } from '../seed/small-site.js';
import { workspaceRoot } from '../seed/site-plan.js';
import { ATRIUM_MAIN, startServer, type ServerProcess } from '../server-process.js';
import { postgresStore, sqliteStore, type StoreName } from '../stores.js';
import { cpuMicros } from '../proc-stats.js';
import { postgresBackendsOf } from './database-backends.js';
import { searchCorpus, searchTexts } from './search-corpus.js';

export interface SearchBenchContext {
  database: StoreName;
  postgresUrl: string;
  /** Entries of the searched site (100,000). */
  entries: number;
  /** Searches timed per scenario, each with another text (after a tenth as many for warm-up). */
  searches: number;
  atriumEnv: Record<string, string>;
  nodeArgs: readonly string[];
}

/** One scenario's latencies: every search timed alone, one after the other. */
export interface SearchLatency {
  searches: number;
  medianMs: number;
  p90Ms: number;
  maxMs: number;
  /** Entries answered per search, at the median. */
  medianResults: number;
  /**
   * CPU time per timed search, in milliseconds: Atrium's process, and the PostgreSQL backends
   * serving it (none on SQLite, whose work is in Atrium's process). Unlike the latencies, it does
   * not grow when other work on the machine takes the cores.
   */
  cpuMsPerSearch: { atrium: number; database: number };
}

const API = '/api/rest/v1';
const CORPUS = 'Library';

/** The scenarios' names, as the report finds them. */
export const SEARCH_SCENARIOS = {
  admin: (perPage: number | undefined) => `search_all from the root, 3 to 8 characters, Workspace Administrator, ${perPage === undefined ? 'default page (1,000)' : `per_page=${perPage}`}`,
  member: 'search_all from the root, 3 to 8 characters, a member with grants on 3 of 20 departments, per_page=100',
  short: 'search_all from the root, 2 characters (no trigram: bounded scan), Workspace Administrator, per_page=100',
} as const;

/**
 * Searching by part of a name (docs/files.md, "What a search costs"): a site of `entries` entries
 * bulk-inserted in Workspace 1, then `search_all` searches from the Workspace's root, each with
 * another text taken from a name (so no answer comes from the read cache, and each finds
 * something), timed one at a time from the request to the answer's last byte.
 */
export async function searchBench(ctx: SearchBenchContext, record: (row: ResultRow) => void, progress: (line: string) => void): Promise<void> {
  const { database } = ctx;
  const store = database === 'sqlite' ? await sqliteStore() : await postgresStore(ctx.postgresUrl);
  if (store === undefined) return progress(`search: PostgreSQL did not answer at ${ctx.postgresUrl}`);
  const forget = undoOnInterrupt(() => store.destroy());
  let server: ServerProcess | undefined;
  try {
    const site = await seedSmallSite(store);
    const started = Date.now();
    const corpus = searchCorpus(`${workspaceRoot(1)}/${CORPUS}`, ctx.entries, started);
    const writer = await store.openWriter();
    try {
      await writer.insert('entries', ['path', 'path_key', 'parent_key', 'type', 'size', 'storage_key', 'created_at', 'mtime'], [
        [`${workspaceRoot(1)}/${CORPUS}`, `${workspaceRoot(1)}/${CORPUS}`.toLowerCase(), workspaceRoot(1).toLowerCase(), 'directory', null, null, started, started],
        ...corpus.rows,
      ]);
      await writer.finish(['entries']);
    } finally {
      await writer.close();
    }
    progress(`search on ${database}: ${corpus.rows.length.toLocaleString('en')} entries inserted, name index included, in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    server = await startServer(ATRIUM_MAIN, { ...store.atriumEnv, ...ctx.atriumEnv }, '/health', ctx.nodeArgs);
    const admin = { 'X-ServiceAPI-Key': site.workspaceAdmin.key };
    for (const department of corpus.departments.slice(0, 3)) {
      const made = await fetch(`${server.baseUrl}${API}/permissions`, {
        method: 'POST', headers: { ...admin, 'content-type': 'application/json' },
        body: JSON.stringify({ path: `${CORPUS}/${department}`, user_id: site.member.id, permission: 'readonly' }),
      });
      if (made.status !== 201) throw new Error(`a grant for the member answered ${made.status}: ${await made.text()}`);
    }
    const member = { 'X-ServiceAPI-Key': site.member.key };
    const texts = searchTexts(corpus.fileNames, ctx.searches * 4 + 40, [3, 8]);
    const shortTexts = searchTexts(corpus.fileNames, ctx.searches + 10, [2, 2]);
    const base = { kind: 'search' as const, database, folderSize: corpus.rows.length + 1 };
    const scenarios: [string, Record<string, string>, string[], number | undefined, boolean][] = [
      [SEARCH_SCENARIOS.admin(100), admin, texts.slice(0, ctx.searches + 10), 100, true],
      [SEARCH_SCENARIOS.admin(undefined), admin, texts.slice(ctx.searches + 10, 2 * ctx.searches + 20), undefined, true],
      [SEARCH_SCENARIOS.member, member, texts.slice(2 * ctx.searches + 20, 3 * ctx.searches + 30), 100, false],
      [SEARCH_SCENARIOS.short, admin, shortTexts, 100, true],
    ];
    for (const [scenario, headers, scenarioTexts, perPage, mustFind] of scenarios) {
      const latency = await timeSearches(server, headers, scenarioTexts, perPage, mustFind, Math.ceil(ctx.searches / 10));
      record({ ...base, scenario, searchLatency: latency });
    }
  } catch (error) {
    record({ kind: 'search', database, scenario: 'search section', error: (error as Error).message });
  } finally {
    await server?.stop();
    forget();
    await store.destroy();
  }
}

/**
 * Each text searched once, one search at a time; the first `warmUp` are not counted. A search that
 * must find something and finds nothing is an error: a fast wrong answer is no figure.
 */
async function timeSearches(server: ServerProcess, headers: Record<string, string>, texts: readonly string[], perPage: number | undefined, mustFind: boolean, warmUp: number): Promise<SearchLatency> {
  const baseUrl = server.baseUrl;
  const latencies: number[] = [];
  const results: number[] = [];
  let cpuAtStart: { atrium: number; backends: Map<number, number> } | undefined;
  for (const [i, text] of texts.entries()) {
    if (i === warmUp) {
      // After the warm-up, the connection pool is open: its backends are the ones to count.
      cpuAtStart = { atrium: cpuMicros(server.pid), backends: new Map(postgresBackendsOf(server.pid).map((pid) => [pid, cpuMicros(pid)])) };
    }
    const query = `search=${encodeURIComponent(text)}&search_all=true${perPage === undefined ? '' : `&per_page=${perPage}`}`;
    const started = performance.now();
    const response = await fetch(`${baseUrl}${API}/folders/?${query}`, { headers });
    const body = await response.text();
    const elapsed = performance.now() - started;
    if (response.status !== 200) throw new Error(`search ${JSON.stringify(text)} answered ${response.status}: ${body.slice(0, 200)}`);
    const found = (JSON.parse(body) as unknown[]).length;
    if (mustFind && found === 0 && response.headers.get('x-service-cursor') === null) throw new Error(`search ${JSON.stringify(text)} found nothing`);
    if (i < warmUp) continue;
    latencies.push(elapsed);
    results.push(found);
  }
  const start = cpuAtStart as NonNullable<typeof cpuAtStart>;
  const atrium = (cpuMicros(server.pid) - start.atrium) / 1000 / latencies.length;
  let backends = 0;
  for (const [pid, before] of start.backends) {
    try {
      backends += cpuMicros(pid) - before;
    } catch {
      // A backend that ended took its time with it: the figure is a lower bound.
    }
  }
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
  return {
    searches: sorted.length, medianMs: at(0.5), p90Ms: at(0.9), maxMs: sorted.at(-1) as number,
    medianResults: [...results].sort((a, b) => a - b)[Math.floor(results.length / 2)] as number,
    cpuMsPerSearch: { atrium, database: backends / 1000 / latencies.length },
  };
}
