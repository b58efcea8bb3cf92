import path from 'node:path';
import { measure } from './measure.js';
import { benchOptions } from './options.js';
import { folderListing, usersAsMember, type Scenario } from './scenarios.js';
import { finishSeeding, growGrants, seedSite } from './seed/seed-site.js';
import { startServer, type ServerProcess } from './server-process.js';
import { postgresStore, sqliteStore } from './stores.js';

interface Compared {
  scenario: Scenario;
  accessLog: boolean;
}

/**
 * Before and after on the same seeded site: the listing (key and session), `GET /users` and the
 * key-authenticated listing with the access log on, against several builds of Atrium (each a
 * directory holding a `dist/`). Every build and scenario has its own Atrium process, all running
 * at once, and the loads are short (1 s after 0.5 s of warm-up) and taken in turns, BENCH_ROUNDS
 * times (default 8), the builds' order reversed every other round: the machine's other work then
 * falls on every build alike. Prints the lowest and the median CPU µs per request of each (the
 * lowest is the steadier figure on a busy machine), and PostgreSQL's lowest CPU beside it. With
 * `BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=<dir>"` each profile holds one build's scenario
 * (the process ids are printed).
 *   node dist/.bench/bench/compare-builds.js <build dir> <build dir> ...
 */
async function main(): Promise<void> {
  const builds = process.argv.slice(2);
  if (builds.length === 0) throw new Error('usage: compare-builds.js <build dir> [<build dir> ...]');
  const options = benchOptions({ ...process.env, BENCH_SECTIONS: 'main' });
  const rounds = Number(process.env.BENCH_ROUNDS ?? 8);
  const timing = { warmupSeconds: 0.5, seconds: 1 };
  const lines = [`| database | request | ${builds.join(' | ')} |`, `|---|---|${builds.map(() => '---').join('|')}|`];
  for (const name of options.databases) {
    const store = name === 'sqlite' ? await sqliteStore() : await postgresStore(options.postgresUrl);
    if (store === undefined) continue;
    const servers = new Map<string, ServerProcess>();
    try {
      const writer = await store.openWriter();
      const site = await seedSite(writer, options.site, []);
      await growGrants(writer, site, options.site.grants);
      await finishSeeding(writer);
      await writer.close();
      const listing = folderListing(site, 'key');
      const compared: Compared[] = [
        { scenario: listing, accessLog: false },
        { scenario: folderListing(site, 'session'), accessLog: false },
        { scenario: usersAsMember(site), accessLog: false },
        { scenario: { ...listing, name: `${listing.name} + access log` }, accessLog: true },
      ];
      const id = (build: string, scenario: Scenario) => `${scenario.name}\u0000${build}`;
      for (const build of builds) {
        for (const { scenario, accessLog } of compared) {
          const env = { ...store.atriumEnv, ATRIUM_LOG_LEVEL: 'info', ATRIUM_ACCESS_LOG: String(accessLog) };
          const server = await startServer(path.resolve(build, 'dist/main.js'), env, '/health', options.atriumNodeArgs);
          servers.set(id(build, scenario), server);
          process.stderr.write(`${name} ${build}, pid ${server.pid}: ${scenario.name}\n`);
        }
      }
      const costs = new Map<string, number[]>();
      const databaseCosts = new Map<string, number[]>();
      for (let round = 0; round < rounds; round += 1) {
        for (const { scenario } of compared) {
          for (const build of round % 2 === 0 ? builds : [...builds].reverse()) {
            const measured = await measure(servers.get(id(build, scenario)) as ServerProcess, scenario.request, options.load, timing, name === 'postgres');
            if (measured.failed > 0) throw new Error(`${build}: ${scenario.name}: ${measured.failed} requests failed`);
            costs.set(id(build, scenario), [...(costs.get(id(build, scenario)) ?? []), measured.cpuMicrosPerRequest]);
            if (measured.databaseCpuMicrosPerRequest !== undefined) {
              databaseCosts.set(id(build, scenario), [...(databaseCosts.get(id(build, scenario)) ?? []), measured.databaseCpuMicrosPerRequest]);
            }
          }
        }
      }
      for (const { scenario } of compared) {
        const cells = builds.map((build) => {
          const own = costs.get(id(build, scenario)) ?? [];
          const database = databaseCosts.get(id(build, scenario));
          return `${Math.min(...own).toFixed(0)} / ${median(own).toFixed(0)}${database === undefined ? '' : ` (DB ${Math.min(...database).toFixed(0)})`}`;
        });
        lines.push(`| ${name} | ${scenario.name} | ${cells.join(' | ')} |`);
      }
    } finally {
      for (const server of servers.values()) await server.stop();
      await store.destroy();
    }
  }
  process.stdout.write(`CPU µs per request, lowest / median of ${rounds} rounds:\n\n${lines.join('\n')}\n`);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
