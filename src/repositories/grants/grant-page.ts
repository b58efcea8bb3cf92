import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../db/database.js';
import { startsWith } from '../like-patterns.js';
import { equalsText } from '../../db/text-equality.js';
import type { SortedPageRequest } from '../../lib/sorted-page.js';
import { afterInOrder } from '../keyset-order.js';
import { cachedRead, rowsPolicy } from '../../db/read-cache.js';
import { GRANT_COLUMNS, toGrantRecords, type GrantRecord } from './grant-record.js';
import { atOrBelow, inWorkspaceByOtherIndexes } from './grant-conditions.js';
import { granteeBranches, grantNamesAnyOf, type GrantsEb, type GranteeSet } from './grantee-set.js';

/** A subtree of Folder Admin authority: the grants on `key` (and below it when recursive) in `workspaceId`. */
export interface Subtree {
  key: string;
  recursive: boolean;
  workspaceId: number;
}

/** What a caller may list, beyond the Workspaces it administers in full. */
export interface ListVisibility {
  workspaceIds: readonly number[];
  subtrees: readonly Subtree[];
  own: GranteeSet;
}

export interface GrantPageQuery {
  /** Only grants whose path lies in this Workspace (request context N), or in any (context 0). */
  workspaceId: number | null;
  /** 'all': everything in `workspaceId` (an administrator of the context). */
  visibility: 'all' | ListVisibility;
  grantees?: GranteeSet;
  groupId?: number;
  partnerId?: number;
  /** Grants on any of `anyKeys`, or recursive ones on `recursiveKeys`. */
  covering?: { anyKeys: readonly string[]; recursiveKeys: readonly string[] };
  /** Grants on exactly this path (its key). */
  pathKey?: string;
  /** Grants whose path key starts with this text. */
  pathKeyPrefix?: string;
  /** The order and the page's place in it, `limit` rows. */
  page: SortedPageRequest<GrantSortField>;
}

/** The fields a list of grants can be sorted by. */
export type GrantSortField = 'id' | 'path' | 'user_id' | 'group_id' | 'partner_id';

/** What a grant sorts by in each order; never null (a group's grant has no user: -1, first). */
const SORTED_BY: Readonly<Record<GrantSortField, () => RawBuilder<unknown>>> = {
  id: () => sql.ref('id'),
  path: () => sql.ref('path_key'),
  user_id: () => sql`coalesce(user_id, -1)`,
  group_id: () => sql`coalesce(group_id, -1)`,
  partner_id: () => sql`coalesce(partner_id, -1)`,
};

/** The value `grant` has in the order by `field`, as a cursor keeps it (the SORTED_BY expressions' value). */
export function grantSortValue(grant: GrantRecord, field: GrantSortField): string | number {
  switch (field) {
    case 'id': return grant.id;
    case 'path': return grant.pathKey;
    case 'user_id': return grant.grantee.kind === 'user' ? grant.grantee.userId : -1;
    // An ALL-of grant keeps its groups elsewhere: its group_id is null.
    case 'group_id': return grant.grantee.kind === 'group' ? grant.grantee.groupId : -1;
    case 'partner_id': return grant.grantee.kind === 'partner' ? grant.grantee.partnerId : -1;
  }
}

/** Cached pages hold at most this many grants in all. */
const GRANT_PAGE_POLICY = rowsPolicy<readonly GrantRecord[]>(100_000);

/**
 * One page of grants, by id or in the order asked for. Every filter is a WHERE clause, so the database does the paging.
 * A page is read again only when the data changed since (db/read-cache.ts): an administrator's
 * console pages through the same user's or group's grants over and over, and each read costs a
 * row lookup per grant shown. The query itself is the key, so no caller's authority is kept in it
 * beyond what the caller passed (its visibility), which is recomputed on every request.
 */
export async function grantPage(db: Db, query: GrantPageQuery): Promise<readonly GrantRecord[]> {
  return cachedRead(db, 'grant-page', JSON.stringify(query), async () => Object.freeze(await loadGrantPage(db, query)), GRANT_PAGE_POLICY);
}

async function loadGrantPage(db: Db, query: GrantPageQuery): Promise<GrantRecord[]> {
  const { visibility, grantees, covering, page } = query;
  const sortedBy = SORTED_BY[page.sort.field]();
  const direction = page.sort.direction;
  let select = db.selectFrom('permissions').select(GRANT_COLUMNS);
  if (page.after !== undefined) select = select.where(afterInOrder(sortedBy, sql.ref('id'), direction, page.after));
  const narrowed = visibility !== 'all' || grantees !== undefined || query.groupId !== undefined || query.partnerId !== undefined || covering !== undefined
    || query.pathKey !== undefined || query.pathKeyPrefix !== undefined;
  if (query.workspaceId !== null) {
    select = narrowed ? select.where(inWorkspaceByOtherIndexes(query.workspaceId)) : select.where('workspace_id', '=', query.workspaceId);
  }
  if (visibility !== 'all') select = select.where((eb) => visibleWhere(eb, visibility));
  if (grantees !== undefined) select = select.where(grantNamesAnyOf(grantees));
  if (query.groupId !== undefined) select = select.where('group_id', '=', query.groupId);
  if (query.partnerId !== undefined) select = select.where('partner_id', '=', query.partnerId);
  if (covering !== undefined) select = select.where((eb) => coveringWhere(eb, covering));
  if (query.pathKey !== undefined) select = select.where(equalsText('path_key', query.pathKey));
  if (query.pathKeyPrefix !== undefined) select = select.where(startsWith('path_key', query.pathKeyPrefix));
  select = page.sort.field === 'id' ? select.orderBy('id', direction) : select.orderBy(sortedBy, direction).orderBy('id', direction);
  return toGrantRecords(db, await select.limit(page.limit).execute());
}

function visibleWhere(eb: GrantsEb, visibility: ListVisibility): Expression<SqlBool> {
  const branches: Expression<SqlBool>[] = [];
  if (visibility.workspaceIds.length > 0) branches.push(eb('workspace_id', 'in', visibility.workspaceIds));
  for (const subtree of visibility.subtrees) {
    const onPath = subtree.recursive ? atOrBelow(eb, subtree.key) : eb('path_key', '=', subtree.key);
    branches.push(eb.and([eb('workspace_id', '=', subtree.workspaceId), onPath]));
  }
  branches.push(...granteeBranches(eb, visibility.own));
  return eb.or(branches);
}

function coveringWhere(eb: GrantsEb, covering: NonNullable<GrantPageQuery['covering']>): Expression<SqlBool> {
  const branches: Expression<SqlBool>[] = [];
  if (covering.anyKeys.length > 0) branches.push(eb('path_key', 'in', covering.anyKeys));
  if (covering.recursiveKeys.length > 0) {
    branches.push(eb.and([eb('path_key', 'in', covering.recursiveKeys), eb('recursive', '=', true)]));
  }
  return eb.or(branches);
}
