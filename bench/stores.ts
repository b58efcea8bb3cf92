import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
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
  return {
    name: 'postgres',
    atriumEnv: { ATRIUM_DATABASE_URL: url, ATRIUM_DATA_DIR: dataDir },
    openWriter: () => postgresWriter(url),
    async destroy() {
      await adminQuery(serverUrl, `drop schema if exists ${schema} cascade`);
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
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
