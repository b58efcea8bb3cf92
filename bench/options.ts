import type { LoadSettings } from './load.js';
import type { Timing } from './measure.js';
import { FULL_LARGE_SITE, QUICK_LARGE_SITE, type LargeSiteShape } from './large-site/large-shape.js';
import { FULL_SITE, QUICK_SITE, type SiteShape } from './seed/site-shape.js';
import type { StoreName } from './stores.js';

/**
 * The parts of a run: the main scenarios (with the access-log row), the growth series (grants and
 * folder sizes), the main scenarios after a write (every cache empty), History and access review,
 * WebDAV, the 1 GiB transfers, SFTP, one process against two workers, the web console in Chromium,
 * what automations' `action` triggers cost an upload, search, and a large organisation's site on PostgreSQL.
 */
export const BENCH_SECTIONS = ['main', 'growth', 'cold', 'history', 'webdav', 'transfers', 'sftp', 'workers', 'console', 'automations', 'search', 'large'] as const;
export type BenchSection = (typeof BENCH_SECTIONS)[number];

/** `BENCH_SECTIONS=main,growth`: the named sections only; unset, every section. An unknown name is an error, not a silent skip. */
function sectionsFrom(value: string | undefined): ReadonlySet<BenchSection> {
  if (value === undefined || value.trim() === '') return new Set(BENCH_SECTIONS);
  const names = value.split(',').map((name) => name.trim()).filter((name) => name !== '');
  const unknown = names.filter((name) => !(BENCH_SECTIONS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`BENCH_SECTIONS: unknown section ${unknown.join(', ')} (known: ${BENCH_SECTIONS.join(', ')})`);
  return new Set(names as BenchSection[]);
}

export interface BenchOptions {
  quick: boolean;
  databases: StoreName[];
  postgresUrl: string;
  load: LoadSettings;
  /** Main scenarios and the baseline. */
  timing: Timing;
  /** Each point of the growth series. */
  growthTiming: Timing;
  /** Rounds of the hot path as shipped against its floor, the two taking turns (each row keeps its lowest cost). */
  hotPathRounds: number;
  site: SiteShape;
  /** Grants in the site at each step of the growth series; the main scenarios run at `site.grants`. */
  grantSteps: number[];
  /** Entries in the folders of the listing-growth series. */
  folderSizes: number[];
  /** Records in History at each step of its growth series. */
  historySteps: number[];
  /** History records appended, inside changes, to measure what one costs. */
  recordingEvents: number;
  /** The WebDAV section: the listed folder's entries, the transferred file's bytes and the transfer rounds. */
  webdav: { folderSize: number; transferBytes: number; transferRounds: number };
  /** The SFTP section: the transferred file's bytes and rounds, the concurrent sessions and the small files they fetch. */
  sftp: { transferBytes: number; transferRounds: number; sessions: number; smallFiles: number };
  /** The transfers section: each file's bytes, the rounds, the uploads at once and the idle listing loop's seconds. */
  transfers: { transferBytes: number; transferRounds: number; parallelUploads: number; idleSeconds: number };
  /** The cold section: requests in each loop after a write and with none (warm: more, for the 10 ms ticks), and the rounds. */
  cold: { requests: number; warmRequests: number; rounds: number };
  /** The console section: rounds of each page timing (kept, and not kept before them), and the entries of the folder whose first page is rendered. */
  console: { rounds: number; warmupRounds: number; folderSize: number };
  /** The automations section: the `action` automations watching other folders, and the rounds. */
  automations: { automations: number; rounds: number };
  /** The search section: the entries of the searched site, and the searches timed per scenario. */
  search: { entries: number; searches: number };
  /** The large-site section: the large site's shape (the small one is its first Workspace), the requests of each cold loop and the rounds. */
  large: { shape: LargeSiteShape; coldRequests: number; rounds: number; keepSchemas: boolean };
  /** The parts of the run to do (`BENCH_SECTIONS`); the baseline is always measured. */
  sections: ReadonlySet<BenchSection>;
  /** Extra Node.js flags for Atrium's process, e.g. `--cpu-prof --cpu-prof-dir=prof`. */
  atriumNodeArgs: string[];
  resultsDir: string;
}

/**
 * Settings from the environment. `BENCH_QUICK=1` is a smoke run (a small site, one-second loads,
 * under a minute); the default run takes a few minutes. Every load uses the same connections and
 * pipelining, baseline included.
 */
export function benchOptions(env: NodeJS.ProcessEnv): BenchOptions {
  const quick = env.BENCH_QUICK === '1' || env.BENCH_QUICK === 'true';
  const seconds = Number(env.BENCH_SECONDS ?? (quick ? 1 : 6));
  const site = quick ? QUICK_SITE : FULL_SITE;
  const sections = sectionsFrom(env.BENCH_SECTIONS);
  // Without the growth series the site is seeded once, at the main scenarios' grants, and no large folder.
  const growth = sections.has('growth');
  return {
    quick,
    databases: (env.BENCH_DATABASES ?? 'sqlite,postgres').split(',').map((d) => d.trim()).filter((d): d is StoreName => d === 'sqlite' || d === 'postgres'),
    postgresUrl: env.BENCH_POSTGRES_URL ?? env.ATRIUM_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    load: { connections: Number(env.BENCH_CONNECTIONS ?? 10), pipelining: Number(env.BENCH_PIPELINING ?? 1) },
    timing: { warmupSeconds: quick ? 0.5 : 2, seconds },
    growthTiming: { warmupSeconds: quick ? 0.5 : 1, seconds: quick ? 1 : Math.max(1, Math.round(seconds / 3)), repeats: quick ? 1 : 2 },
    hotPathRounds: quick ? 1 : 2,
    site,
    grantSteps: !growth ? [site.grants] : quick ? [1_000, 10_000] : [1_000, 10_000, 100_000, 1_000_000],
    folderSizes: !growth ? [] : quick ? [100, 1_000] : [100, 1_000, 10_000, 100_000],
    historySteps: quick ? [1_000, 10_000] : [10_000, 100_000, 1_000_000, 10_000_000],
    recordingEvents: 2_000,
    webdav: {
      folderSize: Number(env.BENCH_WEBDAV_FOLDER ?? (quick ? 1_000 : 10_000)),
      transferBytes: Number(env.BENCH_WEBDAV_MIB ?? (quick ? 64 : 1024)) * 2 ** 20,
      transferRounds: quick ? 1 : 2,
    },
    sftp: {
      transferBytes: Number(env.BENCH_SFTP_MIB ?? (quick ? 64 : 1024)) * 2 ** 20,
      transferRounds: quick ? 1 : 2,
      sessions: Number(env.BENCH_SFTP_SESSIONS ?? 20),
      smallFiles: quick ? 20 : 100,
    },
    transfers: {
      transferBytes: Number(env.BENCH_TRANSFER_MIB ?? (quick ? 64 : 1024)) * 2 ** 20,
      transferRounds: quick ? 1 : 2,
      parallelUploads: Number(env.BENCH_TRANSFER_PARALLEL ?? 4),
      idleSeconds: quick ? 2 : 10,
    },
    cold: {
      requests: Number(env.BENCH_COLD_REQUESTS ?? (quick ? 30 : 200)),
      warmRequests: 5 * Number(env.BENCH_COLD_REQUESTS ?? (quick ? 30 : 200)),
      rounds: quick ? 1 : 2,
    },
    console: {
      rounds: Number(env.BENCH_CONSOLE_ROUNDS ?? (quick ? 2 : 7)),
      warmupRounds: quick ? 0 : 1,
      folderSize: Number(env.BENCH_CONSOLE_FOLDER ?? (quick ? 1_000 : 10_000)),
    },
    automations: { automations: Number(env.BENCH_AUTOMATIONS ?? 1_000), rounds: quick ? 1 : 2 },
    search: { entries: Number(env.BENCH_SEARCH_ENTRIES ?? (quick ? 10_000 : 100_000)), searches: Number(env.BENCH_SEARCHES ?? (quick ? 20 : 200)) },
    large: { shape: quick ? QUICK_LARGE_SITE : FULL_LARGE_SITE, coldRequests: quick ? 30 : 200, rounds: quick ? 1 : 2, keepSchemas: env.BENCH_LARGE_KEEP === '1' },
    sections,
    atriumNodeArgs: (env.BENCH_NODE_ARGS ?? '').split(' ').filter((a) => a !== ''),
    resultsDir: env.BENCH_RESULTS_DIR ?? 'bench/results',
  };
}
