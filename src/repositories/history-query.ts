import type { ExpressionBuilder, Expression, SqlBool } from 'kysely';
import type { Db } from '../db/database.js';
import { startsWith } from './like-patterns.js';
import type { Tables } from '../db/tables.js';
import type { HistoryRow } from './history.js';
import { equalsText } from '../db/text-equality.js';

/**
 * One part of what a caller may see of History. A page is the union of its parts: each part is
 * read on its own, in id order through its own index, and the parts are merged, so a page costs
 * the same at ten thousand records as at ten million (an OR of the parts would make the database
 * walk the whole table in id order, testing each row).
 */
export type HistoryPart =
  | { kind: 'everything' }
  | { kind: 'workspace'; workspaceId: number }
  /** A user's own records, in the Workspaces given (null: site-level records). */
  | { kind: 'actor'; userId: number; workspaceIds: readonly (number | null)[] | 'any' }
  /** File actions on a path, or (recursive) on it and everything below it. */
  | { kind: 'files-under'; key: string; recursive: boolean; actions: readonly string[] };

/** Filters that narrow every part alike. Paths are lower-cased site path keys. */
export interface HistoryFilters {
  userId?: number;
  username?: string;
  actions?: readonly string[];
  interface?: string;
  failureType?: string;
  ip?: string;
  /** The path or the destination is exactly this. */
  pathKey?: string;
  /** The path or the destination is this folder or lies below it. */
  folderKey?: string;
  /** The path starts with these characters. */
  pathPrefix?: string;
  /** The record was moved away from a path starting with / equal to this (exports' query_src). */
  sourceKey?: string;
  destinationKey?: string;
  /** Epoch milliseconds: `startAt <= created_at < endAt`. */
  startAt?: number;
  endAt?: number;
  /** Records up to this id only: an export's fixed end. */
  maxId?: number;
}

export interface HistoryPageQuery {
  parts: readonly HistoryPart[];
  filters: HistoryFilters;
  descending: boolean;
  /** The id the previous page ended on. */
  after?: number;
  limit: number;
}

type Eb = ExpressionBuilder<Tables, 'history'>;

/** One page (up to `limit` rows) of the records the parts and the filters select, by id. */
export async function historyPage(db: Db, query: HistoryPageQuery): Promise<HistoryRow[]> {
  const { parts, descending, limit } = query;
  if (parts.length === 0) return [];
  const pages = await Promise.all(parts.map((part) => partPage(db, part, query)));
  const byId = new Map<number, HistoryRow>();
  for (const page of pages) for (const row of page) byId.set(row.id, row);
  return [...byId.values()].sort((a, b) => (descending ? b.id - a.id : a.id - b.id)).slice(0, limit);
}

function partPage(db: Db, part: HistoryPart, query: HistoryPageQuery): Promise<HistoryRow[]> {
  const { filters, descending, after, limit } = query;
  return db.selectFrom('history').selectAll()
    .where((eb) => eb.and([
      ...partConditions(eb, part),
      ...filterConditions(eb, filters),
      ...(after === undefined ? [] : [eb('id', descending ? '<' : '>', after)]),
    ]))
    .orderBy('id', descending ? 'desc' : 'asc')
    .limit(limit)
    .execute();
}

function partConditions(eb: Eb, part: HistoryPart): Expression<SqlBool>[] {
  switch (part.kind) {
    case 'everything':
      return [];
    case 'workspace':
      return [eb('workspace_id', '=', part.workspaceId)];
    case 'actor': {
      if (part.workspaceIds === 'any') return [eb('user_id', '=', part.userId)];
      const ids = part.workspaceIds.filter((id): id is number => id !== null);
      const inWorkspaces = [
        ...(ids.length > 0 ? [eb('workspace_id', 'in', ids)] : []),
        ...(part.workspaceIds.includes(null) ? [eb('workspace_id', 'is', null)] : []),
      ];
      return [eb('user_id', '=', part.userId), eb.or(inWorkspaces)];
    }
    case 'files-under':
      return [
        eb('action', 'in', [...part.actions]),
        part.recursive ? eb.or([under(eb, 'path_key', part.key), under(eb, 'destination_key', part.key)])
          : eb.or([eb('path_key', '=', part.key), eb('destination_key', '=', part.key)]),
      ];
  }
}

function filterConditions(eb: Eb, f: HistoryFilters): Expression<SqlBool>[] {
  const conditions: Expression<SqlBool>[] = [];
  if (f.userId !== undefined) conditions.push(eb('user_id', '=', f.userId));
  if (f.username !== undefined) conditions.push(equalsText('username', f.username));
  if (f.actions !== undefined) conditions.push(eb('action', 'in', [...f.actions]));
  if (f.interface !== undefined) conditions.push(eb('interface', '=', f.interface));
  if (f.failureType !== undefined) conditions.push(eb('failure_type', '=', f.failureType));
  if (f.ip !== undefined) conditions.push(eb('ip', '=', f.ip));
  if (f.pathKey !== undefined) conditions.push(eb.or([eb('path_key', '=', f.pathKey), eb('destination_key', '=', f.pathKey)]));
  if (f.folderKey !== undefined) conditions.push(eb.or([under(eb, 'path_key', f.folderKey), under(eb, 'destination_key', f.folderKey)]));
  if (f.pathPrefix !== undefined) conditions.push(eb.and([eb('path_key', 'is not', null), startsWith('path_key', f.pathPrefix)]));
  if (f.sourceKey !== undefined) conditions.push(eb.and([eb('action', 'in', ['move', 'copy']), under(eb, 'path_key', f.sourceKey)]));
  if (f.destinationKey !== undefined) conditions.push(under(eb, 'destination_key', f.destinationKey));
  if (f.startAt !== undefined) conditions.push(eb('created_at', '>=', f.startAt));
  if (f.endAt !== undefined) conditions.push(eb('created_at', '<', f.endAt));
  if (f.maxId !== undefined) conditions.push(eb('id', '<=', f.maxId));
  return conditions;
}

/** The key itself or anything below it; the site root '' holds every path. */
function under(eb: Eb, column: 'path_key' | 'destination_key', key: string): Expression<SqlBool> {
  if (key === '') return eb(column, 'is not', null);
  return eb.or([eb(column, '=', key), startsWith(column, `${key}/`)]);
}
