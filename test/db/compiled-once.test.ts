import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledOnce } from '../../src/db/compiled-once.js';
import type { Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { testDatabaseTargets } from '../support/databases.js';

// The arguments are named in one order and land in the SQL in another (set before where).
const renameWorkspace = compiledOnce(2, (db, [id, name]: [number, string]) => db.updateTable('workspaces').set({ name }).where('id', '=', id));
const workspacesNamed = compiledOnce(2, (db, [name, limit]: [string, number]) =>
  db.selectFrom('workspaces').select(['id', 'name']).where('name', '=', name).where('id', '>', 0).orderBy('id').limit(limit));

for (const target of testDatabaseTargets()) {
  describe(`statements compiled once [${target.name}]`, () => {
    let database: Database;
    let drop: () => Promise<void>;
    beforeAll(async () => {
      ({ database, drop } = await target.open());
      await migrateToLatest(database);
      await database.db.insertInto('workspaces').values([{ name: 'One', created_at: 0 }, { name: 'Two', created_at: 0 }]).execute();
    });
    afterAll(async () => {
      await database.close();
      await drop();
    });

    it('binds each argument where its placeholder landed, keeps the query constants, and runs in transactions', async () => {
      const [one] = (await workspacesNamed<{ id: number; name: string }>(database.db, 'One', 5)).rows;
      expect(one?.name).toBe('One');
      await database.db.transaction().execute((tx) => renameWorkspace(tx, Number(one?.id), 'Renamed'));
      expect((await workspacesNamed(database.db, 'Renamed', 5)).rows).toHaveLength(1);
      expect((await workspacesNamed(database.db, 'One', 5)).rows).toHaveLength(0);
      expect((await workspacesNamed(database.db, 'Two', 0)).rows).toHaveLength(0);
      await expect(database.db.transaction().execute(async (tx) => {
        await renameWorkspace(tx, Number(one?.id), 'Rolled back');
        throw new Error('roll back');
      })).rejects.toThrow('roll back');
      expect((await workspacesNamed(database.db, 'Renamed', 5)).rows).toHaveLength(1);
    });

    it('refuses a build that leaves an argument unbound', async () => {
      const careless = compiledOnce(2, (db, [name]: [string, string]) => db.selectFrom('workspaces').select('id').where('name', '=', name));
      await expect(careless(database.db, 'One', 'unused')).rejects.toThrow(/not bound/);
    });
  });
}
