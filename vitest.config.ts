import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Each test file builds its own Workspaces and users, so files can run in parallel;
    // a database per file keeps them apart (see test/support/databases.ts).
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
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
          // One worker a core, even on a machine of two: these files wait on the database as much as
          // they compute, so two at once finish in about two thirds of the time one after the other takes.
          maxWorkers: '100%',
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          // Tests that start real server processes: signals, database outages, several nodes, the
          // Files.com SDK against a listening server, the benchmark's smoke run.
          name: 'process',
          include: ['test/process/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts', 'test/support/build-setup.ts'],
          // After the in-process files, one at a time: the browser, rclone and several-node files
          // start servers that each want the machine, and several at once only make each slower.
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
