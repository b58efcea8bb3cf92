import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import { startsWith } from '../like-patterns.js';
import type { GrantsEb } from './grantee-set.js';

/** `path_key` is `key` or lies under it ('' is the site root, above everything). */
export function atOrBelow(eb: GrantsEb, key: string): Expression<SqlBool> {
  if (key === '') return eb.lit(true);
  return eb.or([eb('path_key', '=', key), startsWith('path_key', `${key}/`)]);
}

/**
 * `workspace_id = workspaceId` where a grantee, group, path or visibility condition narrows the
 * rows: their own indexes (permissions_user, _group, _path) find them; left indexable, the
 * Workspace test would tempt SQLite (which has no statistics) into walking every grant of the
 * Workspace instead. A unary '+' makes the term unindexable in SQLite and PostgreSQL alike,
 * without changing its meaning.
 */
export function inWorkspaceByOtherIndexes(workspaceId: number): RawBuilder<SqlBool> {
  return sql<SqlBool>`+${sql.ref('workspace_id')} = ${workspaceId}`;
}
