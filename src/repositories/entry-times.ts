import type { Db } from '../db/database.js';

/**
 * Sets an entry's modification time (ms), as a client keeps it with its copy (SFTP SETSTAT): the
 * time the client gave, so its `provided_mtime` too.
 */
export async function setEntryMtime(db: Db, id: number, mtime: number): Promise<void> {
  await db.updateTable('entries').set({ mtime, provided_mtime: mtime }).where('id', '=', id).execute();
}

/** Sets only the modification time a client gave (REST `provided_mtime`), leaving the server's `mtime`. */
export async function setEntryProvidedMtime(db: Db, id: number, time: number): Promise<void> {
  await db.updateTable('entries').set({ provided_mtime: time }).where('id', '=', id).execute();
}
