import type { Db } from '../db/database.js';
import { sharedSecret } from '../repositories/server-secrets.js';

const SECRET_NAME = 'search-cursor-key';

/** Each database's key, read once per process. */
const keys = new WeakMap<Db, Promise<Buffer>>();

/**
 * The key that seals search_all cursors (http/routes/files/search-cursor.ts): a server secret
 * every node shares, so a cursor made by one node opens on another.
 */
export function searchCursorKey(db: Db, now: number): Promise<Buffer> {
  let key = keys.get(db);
  if (key === undefined) {
    key = sharedSecret(db, SECRET_NAME, now);
    // A failed read is not kept: the next request tries again.
    key.catch(() => keys.delete(db));
    keys.set(db, key);
  }
  return key;
}
