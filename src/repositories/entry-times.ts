import type { Db } from '../db/database.js';

/** Sets an entry's modification time (ms), as a client keeps it with its copy (SFTP SETSTAT). */
export async function setEntryMtime(db: Db, id: number, mtime: number): Promise<void> {
  await db.updateTable('entries').set({ mtime }).where('id', '=', id).execute();
}
