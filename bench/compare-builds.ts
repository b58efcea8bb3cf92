import path from 'node:path';
import { measure } from './measure.js';
import { benchOptions } from './options.js';
import { folderListing, usersAsMember, type Scenario } from './scenarios.js';
import { finishSeeding, growGrants, seedSite } from './seed/seed-site.js';
import { startServer } from './server-process.js';
import { postgresStore, sqliteStore } from './stores.js';

/**
 * Before and after on the same seeded site: measures the listing (key and session), `GET /users`
 * and the key-authenticated listing with the access log on against several builds of Atrium in
 * turn (each a directory holding a `dist/`), BENCH_ROUNDS times (default 3), and prints the median
 * CPU µs per request of each. Interleaving the builds keeps the machine's other work from
 * favouring one of them. Each build and scenario gets its own Atrium process, so with
 * `BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=<dir>"` each profile holds one scenario (the
 * process ids are printed).
 *   node dist/.bench/bench/compare-builds.js <build dir> <build dir> ...
 */
async function main(): Promise<void> {
  const builds = process.argv.slice(2);
  if (builds.length === 0) throw new Error('usage: compare-builds.js <build dir> [<build dir> ...]');
  const options = benchOptions(process.env);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const timing = { warmupSeconds: 1, seconds: 3 };
  const lines = ['| database | request | ' + builds.join(' | ') + ' |', `|---|---|${builds.map(() => '---').join('|')}|`];
  for (const name of options.databases) {
    const store = name === 'sqlite' ? await sqliteStore() : await postgresStore(options.postgresUrl);
    if (store === undefined) continue;
    try {
      const writer = await store.openWriter();
      const site = await seedSite(writer, options.site, options.folderSizes);
      await growGrants(writer, site, options.site.grants);
      await finishSeeding(writer);
      await writer.close();
      const listing = folderListing(site, 'key');
      const scenarios: { scenario: Scenario; accessLog: boolean }[] = [
        { scenario: listing, accessLog: false },
        { scenario: folderListing(site, 'session'), accessLog: false },
        { scenario: usersAsMember(site), accessLog: false },
        { scenario: { ...listing, name: `${listing.name} + access log` }, accessLog: true },
      ];
      const costs = new Map<string, number[]>();
      for (let round = 0; round < rounds; round += 1) {
        for (const build of builds) {
          for (const { scenario, accessLog } of scenarios) {
            const env = { ...store.atriumEnv, ATRIUM_LOG_LEVEL: 'info', ATRIUM_ACCESS_LOG: String(accessLog) };
            const server = await startServer(path.resolve(build, 'dist/main.js'), env, '/health', options.atriumNodeArgs);
            try {
              const measured = await measure(server, scenario.request, options.load, timing, name === 'postgres');
              const key = `${scenario.name}\u0000${build}`;
              costs.set(key, [...(costs.get(key) ?? []), measured.cpuMicrosPerRequest]);
              const databaseCpu = measured.databaseCpuMicrosPerRequest === undefined ? '' : ` (+${measured.databaseCpuMicrosPerRequest.toFixed(0)} DB)`;
              process.stderr.write(`${name} ${build} round ${round + 1}, pid ${server.pid}: ${scenario.name}: ${measured.cpuMicrosPerRequest.toFixed(0)} µs${databaseCpu}\n`);
            } finally {
              await server.stop();
            }
          }
        }
      }
      for (const { scenario } of scenarios) {
        lines.push(`| ${name} | ${scenario.name} | ${builds.map((b) => median(costs.get(`${scenario.name}\u0000${b}`) ?? []).toFixed(0)).join(' | ')} |`);
      }
    } finally {
      await store.destroy();
    }
  }
  process.stdout.write(`CPU µs per request, median of ${rounds} rounds:\n\n${lines.join('\n')}\n`);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
