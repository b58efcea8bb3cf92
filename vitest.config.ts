import os from 'node:os';
import { defineConfig } from 'vitest/config';
import LongestFirst from './test/support/longest-first.js';

/**
 * Workers for both projects, one a core and one more: the in-process files mostly compute, the
 * process files mostly wait on the servers, browsers and clients they start, so one pool of both
 * keeps every core busy. On 2 cores the suite took 693 s with the two projects one after the
 * other, and about 425 s in one pool of 3 workers; 4 were no faster (411 to 422 s) and starved the
 * bench's smoke run of its half-second loads. ATRIUM_TEST_WORKERS overrides it.
 */
const WORKERS = Number(process.env.ATRIUM_TEST_WORKERS ?? os.availableParallelism() + 1);

export default defineConfig({
  test: {
    // Each test file builds its own Workspaces and users, so files can run in parallel;
    // a database per file keeps them apart (see test/support/databases.ts).
    pool: 'forks',
    testTimeout: 30_000,
    // ATRIUM_TEST_CPU_REPORT=<file> writes each file's processor time there (test/support/cpu-per-file.ts).
    setupFiles: ['test/support/cpu-per-file.ts'],
    hookTimeout: 60_000,
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        extends: true,
        test: {
          // Everything that runs in this process: the app through its front doors, the engine, the
          // units. `npm test -- --project fast` runs only these.
          name: 'fast',
          include: ['test/**/*.test.ts'],
          exclude: ['test/process/**'],
          globalSetup: ['test/support/global-setup.ts'],
          // A worker runs file after file without loading the modules again: every file starts
          // its own app on its own database and keeps nothing in module state, and loading the
          // server's modules anew for each of 100 files cost a third of this project's time.
          isolate: false,
          maxWorkers: WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          // Tests that start real server processes: signals, database outages, several nodes, the
          // Files.com SDK against a listening server, the console in Chromium, the bench's smoke run.
          // Each file gets its own ports (picked by the kernel), data directory and schema.
          name: 'process',
          include: ['test/process/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts', 'test/support/build-setup.ts'],
          maxWorkers: WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
    ],
  },
});
