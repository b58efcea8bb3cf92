import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openPostgres, openSqlite, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { tablesMissingTheTrigger } from '../../src/db/migrations/009-data-version.js';
import { cachedRead, requestArrived, workBegins } from '../../src/db/read-cache.js';
import { appendEvents, appendEventsAlone, type Recording } from '../../src/history/record.js';
import { adminQuery, POSTGRES_TEST_URL } from '../support/postgres-server.js';

const RECORDING: Recording = { now: 0, origin: { interface: 'restapi', ip: '127.0.0.1' }, actor: { userId: null, username: null, apiKeyId: null } };

/** Runs `work` as the rest of one request that has just arrived would run (requestArrived). */
function inRequest<T>(database: Database, work: () => Promise<T>): Promise<T> {
  return requestArrived(database.db, work);
}

/** A cached read of the Workspace names, counting how often it really reads. */
let instances = 0;
function workspaceNames(database: Database) {
  let loads = 0;
  // A kind of its own: a test's first read loads, whatever the tests before it cached.
  const kind = `test-workspace-names-${(instances += 1)}`;
  const read = (db = database.db) => cachedRead(db, kind, '', async () => {
    loads += 1;
    return (await db.selectFrom('workspaces').select('name').orderBy('id').execute()).map((row) => row.name);
  });
  return { read, loads: () => loads };
}

const insertWorkspace = (database: Database, name: string) =>
  database.db.insertInto('workspaces').values({ name, created_at: 0 }).execute();

describe('cached reads [sqlite]', () => {
  let dir: string;
  let database: Database;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-read-cache-'));
    database = openSqlite(path.join(dir, 'atrium.sqlite'));
    await migrateToLatest(database);
  });
  afterAll(async () => {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers a repeated read from the cache while nothing changes', async () => {
    const names = workspaceNames(database);
    expect(await inRequest(database, () => names.read())).toEqual(['Default']);
    expect(await inRequest(database, () => names.read())).toEqual(['Default']);
    expect(names.loads()).toBe(1);
  });

  it('reads again after a write through the same database, within the same request too', async () => {
    const names = workspaceNames(database);
    await inRequest(database, async () => {
      await names.read();
      await insertWorkspace(database, 'Written here');
      expect(await names.read()).toContain('Written here');
    });
    expect(await inRequest(database, () => names.read())).toContain('Written here');
  });

  it('reads again in the next request after another connection commits', async () => {
    const names = workspaceNames(database);
    await inRequest(database, () => names.read());
    const other = new BetterSqlite3(path.join(dir, 'atrium.sqlite'));
    other.prepare('insert into workspaces (name, created_at) values (?, 0)').run('Written elsewhere');
    other.close();
    expect(await inRequest(database, () => names.read())).toContain('Written elsewhere');
  });

  it('reads afresh for a request that arrives right after another process commits, for a job that begins after it, and a turn later for anything else', async () => {
    const names = workspaceNames(database);
    const other = new BetterSqlite3(path.join(dir, 'atrium.sqlite'));
    const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
    try {
      await inRequest(database, () => names.read());
      other.prepare('insert into workspaces (name, created_at) values (?, 0)').run('Committed before the request');
      expect(await inRequest(database, () => names.read())).toContain('Committed before the request');
      // Work no request carries announces itself (the job runner does, before each job and duty).
      other.prepare('insert into workspaces (name, created_at) values (?, 0)').run('Committed before a job');
      workBegins(database.db);
      expect(await names.read()).toContain('Committed before a job');
      expect(names.loads()).toBe(3);
      // In the turn of its read, the stamp is shared by whatever asks; from the loop's next round
      // of immediates on, a read that nothing announced (a timer, say) reads the pragma again.
      expect(await names.read()).toContain('Committed before a job');
      expect(names.loads()).toBe(3);
      other.prepare('insert into workspaces (name, created_at) values (?, 0)').run('Committed before a timer');
      await nextTurn();
      await nextTurn();
      expect(await names.read()).toContain('Committed before a timer');
    } finally {
      other.close();
    }
  });

  it('keeps values of a kind within its weight, and answers but never keeps one heavier than an eighth of it', async () => {
    let loads = 0;
    const read = (key: string, size: number) => inRequest(database, () => cachedRead(database.db, 'test-policy', key, async () => {
      loads += 1;
      return 'x'.repeat(size);
    }, { weigh: (value) => value.length, maxWeight: 80 }));
    expect(await read('big', 11)).toHaveLength(11);
    expect(await read('big', 11)).toHaveLength(11);
    expect(loads).toBe(2);
    for (const key of ['a', 'b', 'c', 'd']) await read(key, 10);
    await read('a', 10);
    expect(loads).toBe(6);
    // 'e' takes the kind past 80: it starts over, so 'a' is read again.
    for (const key of ['e', 'f', 'g', 'h', 'i']) await read(key, 10);
    await read('a', 10);
    expect(loads).toBe(12);
  });

  it('keeps its cached reads across a History record and a transaction that only read; a rolled back write moves the version', async () => {
    const names = workspaceNames(database);
    await inRequest(database, () => names.read());
    // A download or a failed sign-in records History only: nothing a cached read reads has changed.
    await inRequest(database, () => database.db.transaction().execute((tx) => appendEvents(tx, RECORDING, [{ action: 'read', workspaceId: null, display: 'Downloaded a file', path: 'a.txt' }])));
    await inRequest(database, () => database.db.transaction().execute((tx) => tx.selectFrom('workspaces').select('id').execute()));
    await inRequest(database, () => names.read());
    expect(names.loads()).toBe(1);
    await expect(inRequest(database, () => database.db.transaction().execute(async (tx) => {
      await tx.updateTable('workspaces').set({ name: 'Renamed, then not' }).where('name', '=', 'Default').execute();
      throw new Error('roll back');
    }))).rejects.toThrow('roll back');
    expect(await inRequest(database, () => names.read())).toContain('Default');
    expect(names.loads()).toBe(2);
  });

  it('never caches inside a transaction, whose reads may see its own uncommitted writes', async () => {
    const names = workspaceNames(database);
    const before = await inRequest(database, () => names.read());
    await expect(inRequest(database, () => database.db.transaction().execute(async (tx) => {
      await tx.insertInto('workspaces').values({ name: 'Rolled back', created_at: 0 }).execute();
      expect(await names.read(tx)).toContain('Rolled back');
      throw new Error('roll back');
    }))).rejects.toThrow('roll back');
    expect(await inRequest(database, () => names.read())).toEqual(before);
  });
});

const serverMode = inject('postgresMode') === 'server';

describe.skipIf(!serverMode)('cached reads [postgres]', () => {
  const schema = `atrium_read_cache_${process.pid}`;
  const url = `${POSTGRES_TEST_URL}${POSTGRES_TEST_URL.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}`;
  let database: Database;
  beforeAll(async () => {
    await adminQuery(`create schema ${schema}`);
    database = openPostgres(url, { max: 2 });
    await migrateToLatest(database);
  });
  afterAll(async () => {
    await database.close();
    await adminQuery(`drop schema if exists ${schema} cascade`);
  });

  it('answers a repeated read from the cache while nothing changes', async () => {
    const names = workspaceNames(database);
    await inRequest(database, () => names.read());
    await inRequest(database, () => names.read());
    expect(names.loads()).toBe(1);
  });

  it('reads again in the next request after another node commits, and within a request after its own write', async () => {
    const names = workspaceNames(database);
    await inRequest(database, () => names.read());
    const otherNode = new pg.Client({ connectionString: url });
    await otherNode.connect();
    await otherNode.query(`insert into workspaces (name, created_at) values ('Written elsewhere', 0)`);
    await otherNode.end();
    expect(await inRequest(database, () => names.read())).toContain('Written elsewhere');
    await inRequest(database, async () => {
      await names.read();
      await insertWorkspace(database, 'Written here');
      expect(await names.read()).toContain('Written here');
    });
  });

  it('keeps its cached reads across a History record and writes in another schema of the server', async () => {
    const names = workspaceNames(database);
    const first = await inRequest(database, () => names.read());
    await inRequest(database, () => database.db.transaction().execute((tx) => appendEvents(tx, RECORDING, [{ action: 'read', workspaceId: null, display: 'Downloaded a file', path: 'a.txt' }])));
    // The chain's end now known, a download's record is one statement outside any transaction.
    await inRequest(database, () => appendEventsAlone(database.db, RECORDING, [{ action: 'read', workspaceId: null, display: 'Downloaded a file', path: 'a.txt' }]));
    // Another application on the same server: its commits leave Atrium's version alone.
    await adminQuery(`create schema ${schema}_neighbour`);
    await adminQuery(`create table ${schema}_neighbour.notes (id serial primary key, body text)`);
    for (let i = 0; i < 3; i += 1) await adminQuery(`insert into ${schema}_neighbour.notes (body) values ('written by another application')`);
    expect(await inRequest(database, () => names.read())).toEqual(first);
    expect(names.loads()).toBe(1);
    await adminQuery(`drop schema ${schema}_neighbour cascade`);
  });

  it('moves the version once for each committed transaction that writes Atrium\'s tables, on any connection', async () => {
    const version = async () => String((await pool.query<{ version: string | number }>('select version from data_version')).rows[0]?.version);
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    try {
      const start = BigInt(await version());
      await insertWorkspace(database, 'One statement');
      expect(BigInt(await version())).toBe(start + 1n);
      await database.db.transaction().execute(async (tx) => {
        await tx.insertInto('workspaces').values({ name: 'Two', created_at: 0 }).execute();
        await tx.updateTable('workspaces').set({ created_at: 1 }).where('name', '=', 'Two').execute();
        await tx.deleteFrom('workspaces').where('name', '=', 'One statement').execute();
      });
      expect(BigInt(await version())).toBe(start + 2n);
      // Two connections writing at once, each committing after the other has written: both counted.
      const [a, b] = [new pg.Client({ connectionString: url }), new pg.Client({ connectionString: url })];
      await a.connect();
      await b.connect();
      await a.query('begin');
      await b.query('begin');
      await a.query(`insert into workspaces (name, created_at) values ('From a', 0)`);
      await b.query(`insert into workspaces (name, created_at) values ('From b', 0)`);
      await a.query('commit');
      await b.query('commit');
      await a.end();
      await b.end();
      expect(BigInt(await version())).toBe(start + 4n);
      expect((await pool.query('select count(*)::int as pending from data_version_pending')).rows[0].pending).toBe(0);
    } finally {
      await pool.end();
    }
  });

  it('has every table of Atrium but History\'s noting its writes', async () => {
    expect(await tablesMissingTheTrigger(database.db as never)).toEqual([]);
  });

  it('caches nothing outside a request, where no version was read', async () => {
    const names = workspaceNames(database);
    await names.read();
    await names.read();
    expect(names.loads()).toBe(2);
  });
});
