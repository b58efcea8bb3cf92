import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { adminQuery, adminRows, POSTGRES_TEST_URL } from '../support/postgres-server.js';
import { atrium } from './cli-in-process.js';
import { runCliProcess } from './cli-process.js';

const serverMode = inject('postgresMode') === 'server';
if (!serverMode) process.stderr.write('\nSKIPPED: the CLI tests on a PostgreSQL schema not migrated need a PostgreSQL server (none reachable).\n\n');

/** Every administration command that reads or changes the site, each with arguments it would accept on a site that exists. */
const ADMINISTRATION: { args: string[]; input?: string }[] = [
  { args: ['user', 'list'] },
  { args: ['user', 'create', 'alice', '--password-stdin'], input: 'a long enough password\n' },
  { args: ['user', 'set-password', 'alice', '--password-stdin'], input: 'a long enough password\n' },
  { args: ['user', 'disable', 'alice'] },
  { args: ['user', 'enable', 'alice'] },
  { args: ['key', 'create', '--user', 'alice'] },
  { args: ['explain', '--user', 'alice', '--path', 'Reports'] },
  { args: ['history', 'verify'] },
  { args: ['history', 'prune'] },
];

describe('administration commands on a database that does not exist [SQLite]', () => {
  let folder = '';
  afterEach(() => fs.rmSync(folder, { recursive: true, force: true }));

  it('refuse, naming the data dir they looked in, and create nothing; migrate creates it, and then they run', async () => {
    // A folder with no database, and no ATRIUM_DATA_DIR: the default data dir is ./data in it.
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-no-database-'));
    const dataDir = path.join(folder, 'data');
    for (const { args, input } of [...ADMINISTRATION, { args: ['backup', 'site.tar'] }]) {
      const result = await atrium({}, args, input, folder);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr, args.join(' ')).toContain(dataDir);
      expect(fs.readdirSync(folder), args.join(' ')).toEqual([]);
    }
    // The binary started in that folder looks in the same place.
    expect((await runCliProcess({}, ['user', 'list'], '', folder)).stderr).toBe(
      `atrium: no Atrium database in ${dataDir} (no atrium.sqlite there; the data dir is ATRIUM_DATA_DIR or --data-dir, ./data by default): `
      + "point it at the server's data dir, or create a new site's database with `atrium migrate`\n",
    );
    // The same with the data dir named, when it exists but holds no database.
    const named = path.join(folder, 'named');
    fs.mkdirSync(named);
    const refused = await atrium({ ATRIUM_DATA_DIR: named }, ['user', 'list'], '', folder);
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining(`no Atrium database in ${named} `) });
    expect(fs.readdirSync(named)).toEqual([]);

    expect(await atrium({}, ['migrate'], '', folder)).toMatchObject({ code: 0, stdout: 'the database schema is up to date\n' });
    expect(fs.existsSync(path.join(dataDir, 'atrium.sqlite'))).toBe(true);
    expect(await atrium({}, ['user', 'create', 'alice', '--password-stdin'], 'a long enough password\n', folder)).toMatchObject({ code: 0 });
    expect((await atrium({}, ['user', 'list'], '', folder)).stdout).toMatch(/\talice\t/);
  });

  it('refuse a database file that holds no Atrium schema (an empty file), and add no table to it', async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-empty-database-'));
    const file = path.join(folder, 'atrium.sqlite');
    fs.writeFileSync(file, '', { mode: 0o600 });
    for (const { args, input } of ADMINISTRATION) {
      const result = await atrium({ ATRIUM_DATA_DIR: folder }, args, input);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr, args.join(' ')).toBe(`atrium: ${file} holds no Atrium schema: create it with \`atrium migrate\` (or by starting the server), or check that this is the server's database\n`);
    }
    const db = new Sqlite(file, { readonly: true });
    try {
      expect(db.prepare("select name from sqlite_master where type = 'table'").all()).toEqual([]);
    } finally {
      db.close();
    }
  });
});

describe.skipIf(!serverMode)('administration commands on a PostgreSQL schema not migrated [postgres]', () => {
  const schema = `atrium_unmigrated_${randomBytes(4).toString('hex')}`;
  const url = `${POSTGRES_TEST_URL}${POSTGRES_TEST_URL.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}`;
  let folder = '';
  afterEach(async () => {
    await adminQuery(`drop schema if exists ${schema} cascade`);
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('refuse, naming the schema and `atrium migrate`, and create no table and no data dir; migrate creates the schema', async () => {
    await adminQuery(`create schema ${schema}`);
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-unmigrated-'));
    const env = { ATRIUM_DATABASE_URL: url, ATRIUM_DATA_DIR: path.join(folder, 'data') };
    const tables = async () => (await adminRows(`select table_name from information_schema.tables where table_schema = '${schema}'`)).length;
    for (const { args, input } of ADMINISTRATION) {
      const result = await atrium(env, args, input);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr, args.join(' ')).toBe(`atrium: the PostgreSQL database of ATRIUM_DATABASE_URL (schema "${schema}") holds no Atrium schema: create it with \`atrium migrate\` (or by starting the server), or check that this is the server's database\n`);
    }
    const backup = await atrium(env, ['backup', path.join(folder, 'site.tar')]);
    expect(backup).toMatchObject({ code: 1, stderr: expect.stringContaining(`${env.ATRIUM_DATA_DIR} does not exist`) });
    expect(await tables()).toBe(0);
    expect(fs.readdirSync(folder)).toEqual([]);

    expect(await atrium(env, ['migrate'])).toMatchObject({ code: 0, stdout: 'the database schema is up to date\n' });
    expect(await tables()).toBeGreaterThan(0);
    expect(await atrium(env, ['user', 'list'])).toMatchObject({ code: 0 });
  });
});
