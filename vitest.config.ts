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
        },
      },
    ],
  },
});
