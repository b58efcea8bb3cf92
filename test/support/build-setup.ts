import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

/**
 * The build's last file: `npm run build` and buildNow both bundle the server, then build the
 * console, whose index.html Vite writes anew every time. Its time is when the build finished.
 */
const BUILT = path.join('dist', 'web', 'index.html');

/** What a build is made from: the server's and the console's sources, and what configures them. */
const SOURCES = ['src', 'web', 'package.json', 'package-lock.json', 'tsconfig.json', 'rolldown.config.js'];

/**
 * Process tests run the built server exactly as `npm start` does. The build is made once before
 * they start, unless the one in dist/ is newer than every source (CI builds once before the tests,
 * so the suite does not build again); a plain `npm test` after an edit builds, so it never tests
 * stale code. ATRIUM_TEST_SKIP_BUILD=1 keeps whatever dist/ holds, for quick reruns.
 */
export default async function buildServer(project: TestProject): Promise<void> {
  if (process.env.ATRIUM_TEST_SKIP_BUILD === '1') return;
  if (!(await runsProcessFiles(project))) return;
  if (buildIsFresh()) {
    process.stderr.write('The build in dist/ is newer than the sources: the process tests use it.\n');
    return;
  }
  buildNow();
}

/**
 * Whether this run has a process file to run: a run of in-process files alone (a file, a folder,
 * `--exclude 'test/process/**'`) needs no build. The run's file filters are Vitest's own
 * (`filenamePattern`, not part of its typed API): where they cannot be read, the build is made.
 */
async function runsProcessFiles(project: TestProject): Promise<boolean> {
  const filters = (project.vitest as unknown as { filenamePattern?: unknown }).filenamePattern;
  if (filters !== undefined && !(Array.isArray(filters) && filters.every((filter) => typeof filter === 'string'))) return true;
  const { testFiles } = await project.globTestFiles(filters as string[] | undefined);
  return testFiles.some((file) => file.includes(`${path.sep}test${path.sep}process${path.sep}`));
}

function buildNow(): void {
  execFileSync(process.execPath, ['node_modules/rolldown/bin/cli.mjs', '-c', 'rolldown.config.js'], { stdio: 'inherit' });
  // Vitest sets NODE_ENV=test, which would make Vite build React's development bundle.
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
}

function buildIsFresh(): boolean {
  let builtAt: number;
  try {
    builtAt = fs.statSync(BUILT).mtimeMs;
  } catch {
    return false;
  }
  return SOURCES.every((source) => newestChange(source) < builtAt);
}

/** The latest modification time of a file, or of anything in a folder (node_modules and dist aside). */
function newestChange(source: string): number {
  const stat = fs.statSync(source, { throwIfNoEntry: false });
  if (stat === undefined) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(source, { withFileTypes: true, recursive: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(entry.parentPath, entry.name);
    newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}
