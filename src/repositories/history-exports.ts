import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { HistoryExportsTable } from '../db/tables.js';

export type HistoryExportRow = Selectable<HistoryExportsTable>;

export async function insertHistoryExport(db: Db, row: Insertable<HistoryExportsTable>): Promise<number> {
  const inserted = await db.insertInto('history_exports').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

export async function findHistoryExport(db: Db, id: number): Promise<HistoryExportRow | undefined> {
  return db.selectFrom('history_exports').selectAll().where('id', '=', id).executeTakeFirst();
}
