import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Tables } from '../../db/tables.js';
import { allOfGrantIdsNamingAny } from './all-of-grants.js';

export type GrantsEb = ExpressionBuilder<Tables, 'permissions'>;

/** Grants that name a grantee: a user id, any of some group ids, some ALL-of grant ids, or a Partner. */
export interface GranteeSet {
  userId: number | null;
  groupIds: readonly number[];
  allOfGrantIds: readonly number[];
  /** A Partner user's Partner: its grants are the only ones such a user can hold (the set then names nothing else). */
  partnerId?: number | null;
}

/**
 * The condition "the grant names someone in `set`", the one way every query asks which grants can
 * match a user: a single OR over one branch per grantee kind, each served by its own index
 * (permissions_user, permissions_group, the primary key). SQLite runs it as a multi-index OR and
 * PostgreSQL as a BitmapOr over those indexes, so neither walks the site's grants. Measured on the
 * bench's site against a query per branch, it was faster at every call site on SQLite and wherever
 * a path narrows the rows on PostgreSQL, and level with it elsewhere (where the three queries run in
 * parallel on pooled connections), with one statement on one connection instead of three.
 * The ALL-of branch is a list of ids read beforehand (allOfGrantIdsNamingAny), never a subquery:
 * PostgreSQL can only filter rows by a subquery inside an OR, and then scans every grant whenever
 * no path condition narrows the rows first.
 */
export function grantNamesAnyOf(set: GranteeSet) {
  return (eb: GrantsEb): Expression<SqlBool> => eb.or(granteeBranches(eb, set));
}

/** The branches of grantNamesAnyOf, for a condition that adds branches of its own. An empty set has none. */
export function granteeBranches(eb: GrantsEb, set: GranteeSet): Expression<SqlBool>[] {
  const branches: Expression<SqlBool>[] = [];
  if (set.userId !== null) branches.push(eb('user_id', '=', set.userId));
  if (set.groupIds.length > 0) branches.push(eb('group_id', 'in', set.groupIds));
  if (set.allOfGrantIds.length > 0) branches.push(eb('id', 'in', set.allOfGrantIds));
  if (set.partnerId !== undefined && set.partnerId !== null) branches.push(eb('partner_id', '=', set.partnerId));
  return branches;
}

/** Who a user is as far as grants go: itself and its groups, or for a Partner user its Partner alone. */
export interface GrantHolder {
  userId: number;
  groupIds: readonly number[];
  partnerId: number | null;
}

/**
 * The grantees whose grants can match a user: itself, its groups, and every ALL-of grant naming
 * one of its groups (the engine decides whether the user holds all of them); for a Partner user,
 * its Partner only, whose grants are all the access it has.
 */
export async function granteesThatCanMatch(db: Db, holder: GrantHolder): Promise<GranteeSet> {
  if (holder.partnerId !== null) return { userId: null, groupIds: [], allOfGrantIds: [], partnerId: holder.partnerId };
  return { userId: holder.userId, groupIds: holder.groupIds, allOfGrantIds: await allOfGrantIdsNamingAny(db, holder.groupIds) };
}
