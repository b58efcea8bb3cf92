import type { Grant } from '../../authz/index.js';
import type { Db } from '../../db/database.js';
import { startsWith } from '../like-patterns.js';
import { cachedRead } from '../../db/read-cache.js';
import { GRANT_COLUMNS, toEngineGrant, toGrantRecords } from './grant-record.js';
import { grantNamesAnyOf, granteesThatCanMatch, type GrantHolder } from './grantee-set.js';
import { GRANT_LIST_POLICY } from './grants-on-paths.js';

/**
 * Grants strictly below a folder that can match a user (its own, its groups', and ALL-of grants
 * naming one of its groups; a Partner user's Partner's; the engine decides which really match). They say which of the
 * folder's entries lead toward something the user was granted (contract 6). Each branch starts
 * from the grantee's index (permissions_user, permissions_group, the primary key), so the cost
 * follows the user's own grants, never the folder's size or the site's grant count.
 */
export function grantsBelowThatCanMatch(db: Db, holder: GrantHolder, folderKey: string): Promise<readonly Grant[]> {
  // Cached until the data changes, like the grants on a path (grants-on-paths.ts).
  const cacheKey = `${holder.userId}\u0000${holder.groupIds.join(',')}\u0000${holder.partnerId ?? ''}\u0000${folderKey}`;
  return cachedRead(db, 'grants-below-that-can-match', cacheKey, async () => Object.freeze(await loadGrantsBelow(db, holder, folderKey)), GRANT_LIST_POLICY);
}

async function loadGrantsBelow(db: Db, holder: GrantHolder, folderKey: string): Promise<Grant[]> {
  const candidates = await granteesThatCanMatch(db, holder);
  let query = db.selectFrom('permissions').select(GRANT_COLUMNS).where(grantNamesAnyOf(candidates));
  // Below the site root is every path but the root itself.
  query = folderKey === '' ? query.where('path_key', '!=', '') : query.where(startsWith('path_key', `${folderKey}/`));
  return (await toGrantRecords(db, await query.execute())).map(toEngineGrant);
}
