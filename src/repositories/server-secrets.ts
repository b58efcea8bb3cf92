import { randomBytes } from 'node:crypto';
import type { Db } from '../db/database.js';

/**
 * A secret the server generates once and every node shares, read from the database. The first
 * node to need it inserts a random value; a node racing it finds the row taken and reads the
 * winner's value, so all nodes end up with the same secret.
 */
export async function sharedSecret(db: Db, name: string, now: number): Promise<Buffer> {
  const existing = await readSecret(db, name);
  if (existing !== undefined) return existing;
  await db
    .insertInto('server_secrets')
    .values({ name, value: randomBytes(32).toString('hex'), created_at: now })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const created = await readSecret(db, name);
  if (created === undefined) throw new Error(`server secret ${name} could not be created`);
  return created;
}

async function readSecret(db: Db, name: string): Promise<Buffer | undefined> {
  const row = await db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirst();
  return row === undefined ? undefined : Buffer.from(row.value, 'hex');
}
