import type { Grant } from '../../authz/index.js';
import type { Db } from '../../db/database.js';
import { cachedRead, rowsPolicy, type CachePolicy } from '../../db/read-cache.js';
import { GRANT_COLUMNS, toEngineGrant, toGrantRecords, type GrantRecord } from './grant-record.js';
import { grantNamesAnyOf, granteesThatCanMatch, type GrantHolder } from './grantee-set.js';

/** Cached lists of grants hold at most this many grants per kind in all (about 20 MB). */
export const GRANT_LIST_POLICY: CachePolicy<readonly Grant[]> = { weigh: (grants) => grants.length, maxWeight: 100_000 };

/**
 * Grants on `pathKeys` that can match a user: its own, its groups', and ALL-of grants naming at
 * least one of its groups (the engine decides whether all are held); a Partner user's Partner's. Every branch is an indexed
 * lookup, so the cost follows the user's grants on these paths, not the site's grant count.
 * Every permission check asks this, so the answer is cached until the data changes.
 */
export async function grantsThatCanMatch(db: Db, holder: GrantHolder, pathKeys: readonly string[]): Promise<Grant[]> {
  if (pathKeys.length === 0) return [];
  // NUL cannot occur in a path key (paths refuse control characters), so the key is unambiguous.
  const key = `${holder.userId}\u0000${holder.groupIds.join(',')}\u0000${holder.partnerId ?? ''}\u0000${pathKeys.join('\u0000')}`;
  const grants = await cachedRead(db, 'grants-that-can-match', key, async () => Object.freeze(await loadGrantsThatCanMatch(db, holder, pathKeys)), GRANT_LIST_POLICY);
  return [...grants];
}

async function loadGrantsThatCanMatch(db: Db, holder: GrantHolder, pathKeys: readonly string[]): Promise<Grant[]> {
  const candidates = await granteesThatCanMatch(db, holder);
  const rows = await db.selectFrom('permissions').select(GRANT_COLUMNS).where('path_key', 'in', pathKeys).where(grantNamesAnyOf(candidates)).execute();
  return (await toGrantRecords(db, rows)).map(toEngineGrant);
}

/**
 * Every grant on the given paths, whoever it names (for explanations and reach). Explaining a path
 * reads all of its ancestors' grants, so the answer is cached until the data changes.
 */
export async function grantsOnPaths(db: Db, pathKeys: readonly string[]): Promise<readonly GrantRecord[]> {
  if (pathKeys.length === 0) return [];
  return cachedRead(db, 'grants-on-paths', pathKeys.join('\u0000'), async () => Object.freeze(await loadGrantsOnPaths(db, pathKeys)), GRANT_RECORDS_POLICY);
}

/** Cached grants on paths hold at most this many grants in all. */
const GRANT_RECORDS_POLICY = rowsPolicy<readonly GrantRecord[]>(100_000);

async function loadGrantsOnPaths(db: Db, pathKeys: readonly string[]): Promise<GrantRecord[]> {
  const rows = await db.selectFrom('permissions').select(GRANT_COLUMNS).where('path_key', 'in', pathKeys).orderBy('id').execute();
  return toGrantRecords(db, rows);
}
