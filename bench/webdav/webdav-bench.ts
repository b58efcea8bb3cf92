import type { Measurement, Timing } from '../measure.js';
import type { ResultRow } from '../run-bench.js';
import { seedSmallSite } from '../seed/small-site.js';
import { ATRIUM_MAIN, startServer, type ServerProcess } from '../server-process.js';
import { postgresStore, sqliteStore, type StoreName } from '../stores.js';
import { undoOnInterrupt } from '../cleanup.js';
import { measureLoop, sendOnce } from './http-loop.js';
import { download, upload, type Transfer } from '../transfer.js';
import { basicWithKey, propfindListing, restListing, type DavScenario } from './webdav-scenarios.js';

export interface WebdavBenchContext {
  database: StoreName;
  postgresUrl: string;
  /** Entries of the listed folder (10,000; fewer in a quick run). */
  folderSize: number;
  /** Size of the file moved up and down (1 GiB; less in a quick run). */
  transferBytes: number;
  /** Rounds of the transfers, alternating which door goes first; each figure keeps its best round. */
  transferRounds: number;
  timing: Timing;
  connections: number;
  atriumEnv: Record<string, string>;
  nodeArgs: readonly string[];
}

/**
 * WebDAV next to REST in the same run, on the same server, as the same users (docs/benchmarks.md):
 * a listing of a large folder (PROPFIND Depth 1 against GET /folders of the whole folder), then
 * a large file uploaded and downloaded through each door. The site is a small one of its own: what
 * is measured is the protocol's cost over the same file services, not the site's size.
 */
export async function webdavBench(ctx: WebdavBenchContext, record: (row: ResultRow) => void, progress: (line: string) => void): Promise<void> {
  const { database } = ctx;
  const store = database === 'sqlite' ? await sqliteStore() : await postgresStore(ctx.postgresUrl);
  if (store === undefined) return progress(`webdav: PostgreSQL did not answer at ${ctx.postgresUrl}`);
  const forget = undoOnInterrupt(() => store.destroy());
  let server: ServerProcess | undefined;
  try {
    const site = await seedSmallSite(store, [ctx.folderSize]);
    server = await startServer(ATRIUM_MAIN, { ...store.atriumEnv, ...ctx.atriumEnv }, '/health', ctx.nodeArgs);
    const base = { kind: 'webdav' as const, database, folderSize: ctx.folderSize };
    for (const scenario of [restListing(site, ctx.folderSize), propfindListing(site, ctx.folderSize)]) {
      record(await runLoaded(server, scenario, ctx, base));
    }
    for (const row of await transfers(server, site.workspaceAdmin.key, ctx)) record({ ...base, ...row });
  } catch (error) {
    // The rest of the bench goes on; the report shows what went wrong here.
    record({ kind: 'webdav', database, scenario: 'WebDAV section', error: (error as Error).message });
  } finally {
    await server?.stop();
    forget();
    await store.destroy();
  }
}

async function runLoaded(server: ServerProcess, scenario: DavScenario, ctx: WebdavBenchContext, row: Omit<ResultRow, 'scenario'>): Promise<ResultRow> {
  const probe = await sendOnce(server.baseUrl, scenario.request);
  const error = scenario.check(probe.status, probe.text);
  if (error !== undefined) return { ...row, scenario: scenario.name, error };
  const measurement: Measurement = await measureLoop(server, scenario.request, ctx.connections, ctx.timing, ctx.database === 'postgres');
  if (measurement.failed > 0) return { ...row, scenario: scenario.name, measurement, error: `${measurement.failed} requests failed under load` };
  return { ...row, scenario: scenario.name, measurement };
}

/**
 * The Workspace Administrator uploads the file through REST (PUT /files, the whole body in one
 * request) and through WebDAV (PUT), then downloads each (GET /files?action=stream; GET), round
 * after round, the doors taking turns to go first so neither always meets a colder cache.
 */
async function transfers(server: ServerProcess, key: string, ctx: WebdavBenchContext): Promise<Omit<ResultRow, 'kind' | 'database'>[]> {
  const size = ctx.transferBytes;
  const label = size >= 2 ** 30 ? `${size / 2 ** 30} GiB` : `${size / 2 ** 20} MiB`;
  const rest = { headers: { 'X-ServiceAPI-Key': key }, put: '/api/rest/v1/files/webdav-bench/rest.bin', get: '/api/rest/v1/files/webdav-bench/rest.bin?action=stream' };
  const dav = { headers: { authorization: basicWithKey(key) }, put: '/dav/webdav-bench/dav.bin', get: '/dav/webdav-bench/dav.bin' };
  const made = await sendOnce(server.baseUrl, { method: 'POST', path: '/api/rest/v1/folders/webdav-bench', headers: rest.headers });
  if (made.status !== 201) throw new Error(`could not make the bench folder: ${made.status} ${made.text.slice(0, 200)}`);
  const best = new Map<string, Transfer>();
  const keep = (name: string, transfer: Transfer) => {
    const kept = best.get(name);
    if (kept === undefined || transfer.mibPerSecond > kept.mibPerSecond) best.set(name, transfer);
  };
  const names = {
    restPut: `REST PUT /files/<path> (${label})`, davPut: `WebDAV PUT (${label})`,
    restGet: `REST GET /files/<path>?action=stream (${label})`, davGet: `WebDAV GET (${label})`,
  };
  const errors = new Map<string, string>();
  const attempt = async (name: string, run: () => Promise<Transfer>) => {
    try {
      keep(name, await run());
    } catch (error) {
      errors.set(name, (error as Error).message);
    }
  };
  for (let round = 0; round < ctx.transferRounds; round += 1) {
    const order = round % 2 === 0 ? [rest, dav] : [dav, rest];
    for (const door of order) {
      await attempt(door === rest ? names.restPut : names.davPut, () => upload(server.baseUrl, door.put, door.headers, size, [200, 201, 204], server.pid));
    }
    for (const door of order) {
      await attempt(door === rest ? names.restGet : names.davGet, () => download(server.baseUrl, door.get, door.headers, size, server.pid));
    }
  }
  return Object.values(names).map((name) => {
    const transfer = best.get(name);
    const error = errors.get(name);
    return transfer === undefined ? { scenario: name, error: error ?? 'not run' } : { scenario: name, transfer };
  });
}
