import os from 'node:os';
import { defineConfig } from 'vitest/config';
import LongestFirst from './test/support/longest-first.js';

/**
 * Workers: one a core and one more. The in-process files mostly compute, the process files mostly
 * wait on the servers, browsers and clients they start, so one pool of both keeps every core busy.
 * On 2 cores the suite took 693 s with the two kinds one after the other, and about 425 s in one
 * pool of 3 workers; 4 were no faster (411 to 422 s) and starved the bench's smoke run of its
 * half-second loads. ATRIUM_TEST_WORKERS overrides it.
 */
const WORKERS = Number(process.env.ATRIUM_TEST_WORKERS ?? os.availableParallelism() + 1);

export default defineConfig({
  test: {
    // Two kinds of file share one project, and so one pool whose workers keep their modules loaded
    // from file to file (`isolate: false`): the in-process files (the app through its front doors,
    // the engine, the units: `npm test -- --exclude 'test/process/**'` runs only these) and the
    // process files under test/process/ (real server processes: signals, database outages,
    // several nodes, the Files.com SDK against a listening server, the console in Chromium, the
    // bench's smoke run). Every file starts its own app or servers on its own database, ports and
    // data directory, and keeps nothing in module state. As two projects, a worker was replaced
    // whenever the next file was of the other project: loading the modules alone cost the whole
    // suite 57 core-seconds that way, 17.5 as one project.
    include: ['test/**/*.test.ts'],
    isolate: false,
    pool: 'forks',
    maxWorkers: WORKERS,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // ATRIUM_TEST_CPU_REPORT=<file> writes each file's processor time there (test/support/cpu-per-file.ts).
    setupFiles: ['test/support/cpu-per-file.ts'],
    globalSetup: ['test/support/global-setup.ts', 'test/support/build-setup.ts'],
    sequence: { sequencer: LongestFirst },
  },
});
