import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { adminQuery, POSTGRES_TEST_URL } from '../support/postgres-server.js';
import { startServer, type ServerProcess } from '../support/server-process.js';

/**
 * The backup and restore commands of docs/deployment.md, run as written: the shell blocks of its
 * "Backup and restore" section in order, with only the example folders moved into a temporary one,
 * the example date pinned, and `npm start` starting the already built server in the background.
 */
const KEY = 'backup-doc-bootstrap-key-0123456789abcdef0123';
const serverMode = inject('postgresMode') === 'server';

function documentedBlocks(): string[] {
  const doc = fs.readFileSync('docs/deployment.md', 'utf8');
  const section = /\n## Backup and restore\n([\s\S]*?)\n## /.exec(doc)?.[1] ?? '';
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] as string);
}

/** Runs one documented block with bash, `set -e`, in the repository (where `npx atrium` resolves). */
function runBlock(block: string, work: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const script = [
    'set -euo pipefail',
    // The restore example names the archive of 2026-11-23; the backup example makes it today.
    'date() { if [ "$*" = "+%F" ]; then echo 2026-11-23; else command date "$@"; fi; }',
    `npm() { if [ "$1" = start ]; then node dist/main.js >>"${work}/server.log" 2>&1 & echo $! >"${work}/server.pid"; else command npm "$@"; fi; }`,
    block.replaceAll('/var/backups', `${work}/backups`).replaceAll('/srv/atrium', `${work}/srv`),
  ].join('\n');
  const child = spawn('bash', ['-c', script], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? work, ATRIUM_HOST: '127.0.0.1', ATRIUM_PORT: '0', ATRIUM_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, output })));
}

async function ok(block: string, work: string, env: Record<string, string>): Promise<void> {
  const result = await runBlock(block, work, env);
  if (result.code !== 0) throw new Error(`documented commands failed (${result.code}):\n${block}\n${result.output}`);
}

/** The server the documented `npm start` left running: its base URL once /health answers. */
async function startedServer(work: string): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const log = fs.existsSync(path.join(work, 'server.log')) ? fs.readFileSync(path.join(work, 'server.log'), 'utf8') : '';
    const port = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(log)?.[1];
    if (port !== undefined && (await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false))) return `http://127.0.0.1:${port}`;
    if (Date.now() > deadline) throw new Error(`the restored server did not start:\n${log}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function stopStartedServer(work: string): void {
  const pidFile = path.join(work, 'server.pid');
  if (fs.existsSync(pidFile)) {
    try {
      process.kill(Number(fs.readFileSync(pidFile, 'utf8')), 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

const api = async (base: string, method: string, url: string, body?: unknown) => {
  const headers: Record<string, string> = { 'X-ServiceAPI-Key': KEY };
  if (body !== undefined && !(body instanceof Uint8Array)) headers['content-type'] = 'application/json';
  const payload = body === undefined ? {} : { body: body instanceof Uint8Array ? body : JSON.stringify(body) };
  const response = await fetch(`${base}/api/rest/v1${url}`, { method, headers, ...payload });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
};

/** A few things to find again after the restore: a user, a grant, a file's bytes. */
async function populate(base: string): Promise<{ bytes: Buffer }> {
  const bytes = randomBytes(100_000);
  expect((await api(base, 'POST', '/users', { username: 'kept-user' })).status).toBe(201);
  expect((await api(base, 'PUT', '/files/docs/kept.bin', bytes)).status).toBe(201);
  return { bytes };
}

async function expectRestored(base: string, bytes: Buffer): Promise<void> {
  const users = await api(base, 'GET', '/users');
  expect((users.body as { username: string }[]).map((u) => u.username)).toContain('kept-user');
  const meta = await api(base, 'GET', '/files/docs%2Fkept.bin');
  expect(meta.status).toBe(200);
  const downloaded = Buffer.from(await (await fetch(meta.body.download_uri as string)).arrayBuffer());
  expect(downloaded.equals(bytes)).toBe(true);
}

describe('the backup and restore commands of docs/deployment.md, as written', () => {
  let work = '';
  let live: ServerProcess | undefined;
  const databases: string[] = [];
  afterEach(async () => {
    await live?.stop('SIGKILL');
    stopStartedServer(work);
    for (const name of databases.splice(0)) await adminQuery(`drop database if exists ${name} with (force)`);
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('document four blocks: SQLite backup, SQLite restore, PostgreSQL backup, PostgreSQL restore', () => {
    const blocks = documentedBlocks();
    expect(blocks).toHaveLength(4);
    expect(blocks[0]).toContain('atrium backup');
    expect(blocks[1]).toContain('atrium restore');
    expect(blocks[2]).toContain('pg_dump');
    expect(blocks[3]).toContain('pg_restore');
  });

  it('back up a live SQLite site and restore it into a new data dir that serves the same site', async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-backup-doc-'));
    fs.mkdirSync(path.join(work, 'backups'));
    fs.mkdirSync(path.join(work, 'srv'));
    const dataDir = path.join(work, 'live');
    live = await startServer({ ATRIUM_DATA_DIR: dataDir, ATRIUM_BOOTSTRAP_API_KEY: KEY, ATRIUM_ACCESS_LOG: 'false' });
    const { bytes } = await populate(live.baseUrl);
    const [backup, restore] = documentedBlocks();
    await ok(backup as string, work, { ATRIUM_DATA_DIR: dataDir });
    await ok(restore as string, work, {});
    await expectRestored(await startedServer(work), bytes);
  });

  it.skipIf(!serverMode)('back up a live PostgreSQL site with pg_dump and atrium backup, and restore both [postgres]', async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-backup-doc-pg-'));
    fs.mkdirSync(path.join(work, 'backups'));
    fs.mkdirSync(path.join(work, 'srv'));
    const suffix = randomBytes(4).toString('hex');
    const [original, copy] = [`atrium_doc_live_${suffix}`, `atrium_doc_copy_${suffix}`];
    databases.push(original, copy);
    for (const name of databases) await adminQuery(`create database ${name}`);
    const urlOf = (name: string) => new URL(`/${name}`, POSTGRES_TEST_URL).toString();
    const dataDir = path.join(work, 'live');
    live = await startServer({ ATRIUM_DATABASE_URL: urlOf(original), ATRIUM_DATA_DIR: dataDir, ATRIUM_BOOTSTRAP_API_KEY: KEY, ATRIUM_ACCESS_LOG: 'false' });
    const { bytes } = await populate(live.baseUrl);
    const [, , backup, restore] = documentedBlocks();
    await ok(backup as string, work, { ATRIUM_DATABASE_URL: urlOf(original), ATRIUM_DATA_DIR: dataDir });
    await ok(restore as string, work, { NEW_DATABASE_URL: urlOf(copy) });
    await expectRestored(await startedServer(work), bytes);
  });
});
