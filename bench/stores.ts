import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { openPostgres, openSqlite, type Database } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { postgresWriter, sqliteWriter, type BulkWriter } from './seed/bulk-writer.js';

export type StoreName = 'sqlite' | 'postgres';

/** A fresh, migrated, empty Atrium database that exists only for one bench run. */
export interface BenchStore {
  name: StoreName;
  /** What Atrium's environment needs to use this database. */
  atriumEnv: Record<string, string>;
  openWriter(): Promise<BulkWriter>;
  /**
   * A copy of the data as committed now, for Atrium to run on later (the growth series measures its
   * steps in turns, so that the machine's other work falls on every step alike): what Atrium's
   * environment needs to use it. Destroyed with the store.
   */
  snapshot(label: string): Promise<Record<string, string>>;
  destroy(): Promise<void>;
}

export async function sqliteStore(): Promise<BenchStore> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'atrium-bench-'));
  const file = path.join(dataDir, 'atrium.sqlite');
  await migrated(openSqlite(file));
  return {
    name: 'sqlite',
    atriumEnv: { ATRIUM_DATA_DIR: dataDir },
    openWriter: async () => sqliteWriter(file),
    async snapshot(label) {
      const copyDir = path.join(dataDir, `snapshot-${label}`);
      await fs.mkdir(copyDir);
      // VACUUM INTO reads through its own connection: a consistent copy of what is committed.
      const source = new BetterSqlite3(file, { readonly: true });
      try {
        source.prepare('vacuum into ?').run(path.join(copyDir, 'atrium.sqlite'));
      } finally {
        source.close();
      }
      return { ATRIUM_DATA_DIR: copyDir };
    },
    destroy: () => fs.rm(dataDir, { recursive: true, force: true }),
  };
}

/** A schema of its own on the PostgreSQL server, dropped afterwards; undefined when no server answers. */
export async function postgresStore(serverUrl: string): Promise<BenchStore | undefined> {
  if (!(await reachable(serverUrl))) return undefined;
  const schema = `atrium_bench_${randomBytes(4).toString('hex')}`;
  await adminQuery(serverUrl, `create schema ${schema}`);
  const url = `${serverUrl}${serverUrl.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}`;
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'atrium-bench-pg-'));
  await migrated(openPostgres(url));
  const snapshots: string[] = [];
  return {
    name: 'postgres',
    atriumEnv: { ATRIUM_DATABASE_URL: url, ATRIUM_DATA_DIR: dataDir },
    openWriter: () => postgresWriter(url),
    async snapshot(label) {
      const copy = `${schema}_${label}`;
      snapshots.push(copy);
      await copySchema(serverUrl, schema, copy);
      return { ATRIUM_DATABASE_URL: `${serverUrl}${serverUrl.includes('?') ? '&' : '?'}options=-c%20search_path%3D${copy}`, ATRIUM_DATA_DIR: dataDir };
    },
    async destroy() {
      for (const name of [...snapshots, schema]) await adminQuery(serverUrl, `drop schema if exists ${name} cascade`);
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Every table of `from` (Atrium's and the migrator's) copied into a new schema `to`, with its
 * indexes and defaults, sequences brought past the copied ids, and planner statistics fresh.
 */
async function copySchema(serverUrl: string, from: string, to: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`create schema ${to}`);
    const tables = (await client.query<{ name: string }>('select table_name as name from information_schema.tables where table_schema = $1 and table_type = $2', [from, 'BASE TABLE'])).rows.map((r) => r.name);
    for (const table of tables) {
      await client.query(`create table ${to}."${table}" (like ${from}."${table}" including all)`);
      await client.query(`insert into ${to}."${table}" select * from ${from}."${table}"`);
      const sequence = (await client.query<{ seq: string | null }>(`select pg_get_serial_sequence($1, 'id') as seq from information_schema.columns where table_schema = $2 and table_name = $3 and column_name = 'id'`, [`${to}."${table}"`, to, table])).rows[0]?.seq;
      if (sequence !== null && sequence !== undefined) await client.query(`select setval($1, coalesce((select max(id) from ${to}."${table}"), 0) + 1, false)`, [sequence]);
    }
    await client.query(`vacuum analyze ${tables.map((t) => `${to}."${t}"`).join(', ')}`);
  } finally {
    await client.end();
  }
}

async function migrated(database: Database): Promise<void> {
  try {
    await migrateToLatest(database);
  } finally {
    await database.close();
  }
}

async function reachable(url: string): Promise<boolean> {
  return adminQuery(url, 'select 1').then(() => true, () => false);
}

async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
