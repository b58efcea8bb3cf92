import type { Grantee } from '../../authz/index.js';
import type { Db } from '../../db/database.js';
import { GRANT_COLUMNS, toGrantRecords, type GrantRecord } from './grant-record.js';
import { atOrBelow } from './grant-conditions.js';
import { allOfGrantIdsNamingAny } from './all-of-grants.js';
import { grantNamesAnyOf, type GranteeSet } from './grantee-set.js';

/**
 * The grants of `grantee` on `pathKey` and, with `andBelow`, on every path under it: the only
 * grants a new grant for that grantee can replace. The grantee's own index (permissions_user,
 * permissions_group, permissions_partner, permission_groups_group) finds them, so the cost follows that grantee's
 * grants, not the site's. For an ALL-of grantee this returns every ALL-of grant naming its first
 * group; the engine's sameGrantee keeps only the identical set.
 */
export async function granteeGrantsAtOrBelow(db: Db, grantee: Grantee, pathKey: string, andBelow: boolean): Promise<GrantRecord[]> {
  const named = await grantsOfGrantee(db, grantee);
  if (named === null) return [];
  const rows = await db
    .selectFrom('permissions')
    .select(GRANT_COLUMNS)
    .where(grantNamesAnyOf(named))
    .where((eb) => (andBelow ? atOrBelow(eb, pathKey) : eb('path_key', '=', pathKey)))
    .orderBy('id')
    .execute();
  return toGrantRecords(db, rows);
}

/** The grantee set of one grantee's grants, or null when it can have none. */
async function grantsOfGrantee(db: Db, grantee: Grantee): Promise<GranteeSet | null> {
  switch (grantee.kind) {
    case 'user':
      return { userId: grantee.userId, groupIds: [], allOfGrantIds: [] };
    case 'group':
      return { userId: null, groupIds: [grantee.groupId], allOfGrantIds: [] };
    case 'partner':
      return { userId: null, groupIds: [], allOfGrantIds: [], partnerId: grantee.partnerId };
    case 'groups': {
      const first = grantee.groupIds[0];
      const ids = first === undefined ? [] : await allOfGrantIdsNamingAny(db, [first]);
      return ids.length === 0 ? null : { userId: null, groupIds: [], allOfGrantIds: ids };
    }
  }
}
