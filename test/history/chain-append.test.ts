import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openPostgres, openSqlite, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { appendEvents, appendEventsAlone, type HistoryEvent, type Recording } from '../../src/history/record.js';
import { verifyHistoryChain } from '../../src/history/verify.js';
import { readHistoryChain } from '../../src/repositories/history.js';
import { testDatabaseTargets, type TestDatabaseTarget } from '../support/databases.js';

/**
 * A process appends a record after the chain's end as it last saw it, and falls back to reserving
 * ids when the end has moved. Two Database objects on one database stand for two nodes (or a node
 * and the command line): each one's guess goes stale whenever the other appends.
 */
const RECORDING: Recording = { now: 1_700_000_000_000, origin: { interface: 'restapi', ip: '127.0.0.1' }, actor: { userId: null, username: null, apiKeyId: null } };
const read = (n: number): HistoryEvent => ({ action: 'read', workspaceId: null, display: `Downloaded file ${n}`, path: `file-${n}.txt` });

interface Pair {
  a: Database;
  b: Database;
}

function chainTests(name: string, open: () => Promise<Pair & { close(): Promise<void> }>) {
  describe(`the History chain's end guessed and checked [${name}]`, () => {
    let pair: Pair & { close(): Promise<void> };
    // Records committed so far, and a number that makes every event, rolled back or not, its own.
    let written = 0;
    let made = 0;
    const next = () => {
      written += 1;
      return read((made += 1));
    };
    beforeAll(async () => {
      pair = await open();
    });
    afterAll(async () => pair.close());

    const expectWhole = async (records: number) => {
      const verdict = await verifyHistoryChain(pair.a.db);
      expect(verdict).toMatchObject({ intact: true, checked: records, lastId: records });
      const ids = (await pair.b.db.selectFrom('history').select('id').orderBy('id').execute()).map((row) => Number(row.id));
      expect(ids).toEqual(Array.from({ length: records }, (_, i) => i + 1));
      expect(Number((await readHistoryChain(pair.b.db)).last_id)).toBe(records);
    };

    it('chains each record on the real end when another writer appended in between', async () => {
      const { a, b } = pair;
      await appendEventsAlone(a.db, RECORDING, [next()]);
      await appendEventsAlone(a.db, RECORDING, [next()]);
      await b.db.transaction().execute((tx) => appendEvents(tx, RECORDING, [next()]));
      await appendEventsAlone(b.db, RECORDING, [next()]);
      // a's guess is two records behind: the append must see it and fall back.
      await appendEventsAlone(a.db, RECORDING, [next()]);
      await a.db.transaction().execute((tx) => appendEvents(tx, RECORDING, [next(), next()]));
      await appendEventsAlone(b.db, RECORDING, [next()]);
      await expectWhole(written);
    });

    it('does not chain on a record whose transaction was rolled back', async () => {
      const { a, b } = pair;
      await expect(a.db.transaction().execute(async (tx) => {
        await appendEvents(tx, RECORDING, [next()]);
        throw new Error('roll back');
      })).rejects.toThrow('roll back');
      written -= 1;
      // The id a's record took is free again, and b takes it with another record: a's guess now
      // names the chain's last id, with the hash of a record that was never committed.
      await appendEventsAlone(b.db, RECORDING, [next()]);
      await appendEventsAlone(a.db, RECORDING, [next()]);
      await expect(b.db.transaction().execute(async (tx) => {
        await appendEvents(tx, RECORDING, [next(), next()]);
        throw new Error('roll back');
      })).rejects.toThrow('roll back');
      written -= 2;
      await a.db.transaction().execute((tx) => appendEvents(tx, RECORDING, [next()]));
      await appendEventsAlone(b.db, RECORDING, [next()]);
      await expectWhole(written);
    });

    it.runIf(name === 'postgres')('after another writer appended, tries once more after the end the miss answered: two statements, not three', async () => {
      const { a, b } = pair;
      await appendEventsAlone(a.db, RECORDING, [next()]);
      await appendEventsAlone(b.db, RECORDING, [next()]);
      const statements: string[] = [];
      // Counts what reaches PostgreSQL; the plugin shares a's adapter, so a's guess is the one used.
      const counted = a.db.withPlugin({
        transformQuery: (args) => args.node,
        transformResult: async (args) => {
          statements.push(args.queryId.queryId);
          return args.result;
        },
      });
      await appendEventsAlone(counted, RECORDING, [next()]);
      expect(statements).toHaveLength(2);
      await expectWhole(written);
    });

    it('keeps one unbroken chain with many records at once from both writers', async () => {
      const { a, b } = pair;
      // Two SQLite connections of one process cannot wait on each other (a busy connection blocks
      // the event loop the other needs), so there the writes at once go through one of them.
      const both = name === 'sqlite' ? [a, a] : [a, b];
      const writes = Array.from({ length: 40 }, (_, i) => {
        const database = both[i % 2] as Database;
        const events = i % 5 === 0 ? [next(), next()] : [next()];
        return i % 3 === 0
          ? database.db.transaction().execute((tx) => appendEvents(tx, RECORDING, events))
          : appendEventsAlone(database.db, RECORDING, events);
      });
      await Promise.all(writes);
      await expectWhole(written);
    });
  });
}

chainTests('sqlite', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-chain-'));
  const file = path.join(dir, 'atrium.sqlite');
  const a = openSqlite(file);
  await migrateToLatest(a);
  const b = openSqlite(file);
  return {
    a,
    b,
    async close() {
      await a.close();
      await b.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
});

if (inject('postgresMode') === 'server') {
  chainTests('postgres', async () => {
    // The suite's own PostgreSQL target (a schema of its own), and a second pool on the same schema.
    const target = testDatabaseTargets().find((candidate) => candidate.name === 'postgres') as TestDatabaseTarget;
    const { database: a, url, drop } = await target.open();
    await migrateToLatest(a);
    const b = openPostgres(url as string, { max: 4 });
    return {
      a,
      b,
      async close() {
        await a.close();
        await b.close();
        await drop();
      },
    };
  });
}
