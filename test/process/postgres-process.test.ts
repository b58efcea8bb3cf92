import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { migrationProvider } from '../../src/db/migrations/index.js';
import { adminQuery, POSTGRES_TEST_URL } from '../support/postgres-server.js';
import { runServer, startServer, type ServerProcess } from '../support/server-process.js';
import { temporaryFolders } from '../support/temp-dirs.js';

const KEY = 'postgres-process-bootstrap-key-0123456789abcdef';
const serverMode = inject('postgresMode') === 'server';
if (!serverMode) process.stderr.write('\nSKIPPED: PostgreSQL process tests need a PostgreSQL server (none reachable).\n\n');

describe.skipIf(!serverMode)('the server as processes on one PostgreSQL [postgres]', () => {
  // Where the nodes keep files (a first start writes its host keys and the like), removed after the last test.
  const temporaryFolder = temporaryFolders();
  const schema = `atrium_proc_${randomBytes(4).toString('hex')}`;
  const url = `${POSTGRES_TEST_URL}${POSTGRES_TEST_URL.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}`;
  const running: ServerProcess[] = [];
  afterAll(async () => {
    await Promise.all(running.map((s) => s.stop('SIGKILL')));
    await adminQuery(`drop schema if exists ${schema} cascade`);
  });

  it('migrates and bootstraps an empty database once when three nodes start at the same moment', async () => {
    await adminQuery(`create schema ${schema}`);
    const env = {
      ATRIUM_DATABASE_URL: url,
      ATRIUM_ADMIN_USERNAME: 'first-admin',
      ATRIUM_ADMIN_PASSWORD: 'a sufficiently long password',
      ATRIUM_BOOTSTRAP_API_KEY: KEY,
      ATRIUM_DATA_DIR: temporaryFolder('atrium-nodes-'),
    };
    const nodes = await Promise.all([startServer(env), startServer(env), startServer(env)]);
    running.push(...nodes);
    for (const node of nodes) {
      const response = await fetch(`${node.baseUrl}/api/rest/v1/workspaces`, { headers: { 'X-ServiceAPI-Key': KEY } });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual([expect.objectContaining({ id: 0 })]);
      const health = await (await fetch(`${node.baseUrl}/health`)).json();
      expect(health).toEqual({ status: 'ok', database: 'reachable', dialect: 'postgres' });
    }
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      // Every migration ran once, in order, though three nodes raced to run them.
      const migrations = await client.query('select name from kysely_migration order by name');
      const expected = Object.keys(await migrationProvider('postgres').getMigrations()).sort();
      expect(expected.length).toBeGreaterThanOrEqual(8);
      expect(migrations.rows.map((r) => r.name)).toEqual(expected);
      expect((await client.query('select count(*)::int as n from users')).rows[0].n).toBe(1);
      expect((await client.query('select count(*)::int as n from api_keys')).rows[0].n).toBe(1);
      expect((await client.query('select count(*)::int as n from workspaces')).rows[0].n).toBe(1);
    } finally {
      await client.end();
    }
  });

  it('stops start-up with one clear line when PostgreSQL cannot be reached', async () => {
    const { output, exited } = runServer({ ATRIUM_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' });
    expect(await exited).toBe(1);
    const lines = output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^atrium: start-up failed: .*ECONNREFUSED/);
  });
});
