import type { Kysely } from 'kysely';

/**
 * Runs `work` in a transaction: a new one, or the one `db` already is. A change and its History
 * record must commit together, and a service called from inside another's transaction (a dry run,
 * a change made of several) must not try to open a second one.
 */
export async function inTransaction<Database, Result>(db: Kysely<Database>, work: (tx: Kysely<Database>) => Promise<Result>): Promise<Result> {
  if (db.isTransaction) return work(db);
  return db.transaction().execute(work);
}
