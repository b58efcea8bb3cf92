import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminQuery, POSTGRES_TEST_URL } from '../support/postgres-server.js';
import { startServer, type ServerProcess } from '../support/server-process.js';

/**
 * litmus, the WebDAV conformance suite (Debian's package), against a running Atrium signed in as
 * a user with a password: every group must pass with 0 failures; its warnings are printed (and
 * explained in docs/webdav.md). Where litmus is missing this is a loud skip, unless
 * ATRIUM_TEST_REQUIRE_LITMUS=1 (CI), where it fails.
 */
const GROUPS = ['basic', 'copymove', 'props', 'locks', 'http'] as const;
const USERNAME = 'litmus-admin';
const PASSWORD = 'a long litmus password 🔑';

const litmusFound = fs.existsSync('/usr/bin/litmus') || (process.env.PATH ?? '').split(':').some((dir) => dir !== '' && fs.existsSync(path.join(dir, 'litmus')));
const litmusRequired = process.env.ATRIUM_TEST_REQUIRE_LITMUS === '1';
if (!litmusFound && !litmusRequired) process.stderr.write('\nSKIPPED: the WebDAV litmus conformance suite needs litmus (apt-get install litmus).\n\n');
const serverMode = inject('postgresMode') === 'server';

interface GroupResult {
  run: number;
  passed: number;
  failed: number;
}

/** litmus's per-group summaries (`<- summary for `basic': of 16 tests run: 16 passed, 0 failed.`), its failures and warnings. */
function parseLitmus(output: string): { groups: Map<string, GroupResult>; failures: string[]; warnings: string[] } {
  const groups = new Map<string, GroupResult>();
  for (const match of output.matchAll(/<- summary for `(\w+)': of (\d+) tests run: (\d+) passed, (\d+) failed/g)) {
    groups.set(match[1] as string, { run: Number(match[2]), passed: Number(match[3]), failed: Number(match[4]) });
  }
  const lines = output.split('\n');
  return {
    groups,
    failures: lines.filter((line) => /\bFAIL\b/.test(line)).map((line) => line.trim()),
    warnings: lines.filter((line) => /WARNING:/.test(line)).map((line) => line.trim()),
  };
}

function runLitmus(url: string, cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('litmus', [url, USERNAME, PASSWORD], {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: cwd, TESTS: GROUPS.join(' ') },
      maxBuffer: 16 * 1024 * 1024,
      timeout: 240_000,
    }, (error, stdout, stderr) => {
      // litmus exits non-zero when a test fails: the parsed summaries say which.
      if (error !== null && typeof error.code !== 'number') return reject(error);
      resolve(`${stdout}${stderr}`);
    });
  });
}

interface Target {
  name: string;
  skip: boolean;
  env(dataDir: string): Promise<Record<string, string>>;
  tearDown(): Promise<void>;
}

const schema = `atrium_litmus_${randomBytes(4).toString('hex')}`;
const targets: Target[] = [
  { name: 'SQLite [sqlite]', skip: false, env: async (dataDir) => ({ ATRIUM_DATA_DIR: dataDir }), tearDown: async () => undefined },
  {
    name: 'PostgreSQL [postgres]',
    skip: !serverMode,
    async env(dataDir) {
      await adminQuery(`create schema ${schema}`);
      const url = `${POSTGRES_TEST_URL}${POSTGRES_TEST_URL.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}`;
      return { ATRIUM_DATABASE_URL: url, ATRIUM_DATA_DIR: dataDir };
    },
    tearDown: () => adminQuery(`drop schema if exists ${schema} cascade`),
  },
];

describe.skipIf(!litmusFound && !litmusRequired).each(targets)('litmus WebDAV conformance against a running Atrium on $name', (target) => {
  let server: ServerProcess;
  let work: string;
  let parsed: ReturnType<typeof parseLitmus>;

  beforeAll(async () => {
    if (target.skip) return;
    if (!litmusFound) throw new Error('litmus is required (ATRIUM_TEST_REQUIRE_LITMUS=1) but not installed: apt-get install litmus');
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-litmus-'));
    const env = await target.env(path.join(work, 'data'));
    server = await startServer({ ...env, ATRIUM_ADMIN_USERNAME: USERNAME, ATRIUM_ADMIN_PASSWORD: PASSWORD, ATRIUM_ACCESS_LOG: 'false' });
    const output = await runLitmus(`${server.baseUrl}/dav/`, work);
    parsed = parseLitmus(output);
    const counts = GROUPS.map((group) => {
      const result = parsed.groups.get(group);
      return `${group} ${result === undefined ? 'not run' : `${result.passed}/${result.run}`}`;
    });
    process.stdout.write(`\nlitmus on ${target.name}: ${counts.join(', ')}\n`);
    for (const warning of parsed.warnings) process.stdout.write(`litmus ${warning}\n`);
    if (parsed.failures.length > 0) process.stdout.write(`${output}\n`);
  }, 300_000);

  afterAll(async () => {
    await server?.stop();
    if (!target.skip) await target.tearDown();
    if (work !== undefined) fs.rmSync(work, { recursive: true, force: true });
  });

  for (const group of GROUPS) {
    it.skipIf(target.skip)(`passes the litmus ${group} group with 0 failures`, () => {
      const result = parsed.groups.get(group);
      expect(result, `litmus did not run the ${group} group`).toBeDefined();
      expect(result?.failed, parsed.failures.join('\n')).toBe(0);
      expect(result?.passed).toBe(result?.run);
    });
  }
});
