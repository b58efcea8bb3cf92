import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.js';
import { asSortedPage, type SortedPageRequest } from '../lib/sorted-page.js';
import { afterInOrder } from './keyset-order.js';
import type { Scope } from './scope.js';
import { withinTimeRange } from './time-range.js';

/** What a share link's creator sets, under the names Files.com gives the fields. */
export interface BundleSettings {
  description: string | null;
  internal_name: string | null;
  note: string | null;
  expires_at: number | null;
  start_access_on_date: number | null;
  max_uses: number | null;
  permissions: string;
  require_registration: boolean;
  skip_name: boolean;
  skip_email: boolean;
  skip_company: boolean;
  path_template: string | null;
  path_template_time_zone: string | null;
  dont_separate_submissions_by_folder: boolean;
  dont_allow_folders_in_uploads: boolean;
}

export const DEFAULT_BUNDLE_SETTINGS: Readonly<BundleSettings> = Object.freeze({
  description: null, internal_name: null, note: null, expires_at: null, start_access_on_date: null, max_uses: null, permissions: 'read',
  require_registration: false, skip_name: false, skip_email: false, skip_company: false, path_template: null, path_template_time_zone: null,
  dont_separate_submissions_by_folder: false, dont_allow_folders_in_uploads: false,
});

const FLAG_FIELDS = new Set<keyof BundleSettings>([
  'require_registration', 'skip_name', 'skip_email', 'skip_company', 'dont_separate_submissions_by_folder', 'dont_allow_folders_in_uploads',
]);
const TIME_FIELDS = new Set<keyof BundleSettings>(['expires_at', 'start_access_on_date']);

/** One path a link shares: its qualified site path, and whether it reaches below (a folder's does). */
export interface BundlePath {
  path: string;
  pathKey: string;
  recursive: boolean;
}

/** A share link (docs/sharing.md). */
export interface Bundle {
  id: number;
  workspaceId: number;
  /** Its creator; null once that user was deleted, which ended the link. */
  userId: number | null;
  /** The creator's username, null with no creator. */
  username: string | null;
  code: string;
  settings: BundleSettings;
  passwordHash: string | null;
  createdAt: number;
  updatedAt: number;
}

type BundleRow = Record<string, unknown> & {
  id: number; workspace_id: number; user_id: number | null; username: string | null; code: string; password_hash: string | null;
  created_at: number | string; updated_at: number | string;
};

function toBundle(row: BundleRow): Bundle {
  const settings: Record<string, unknown> = {};
  for (const field of Object.keys(DEFAULT_BUNDLE_SETTINGS) as (keyof BundleSettings)[]) {
    const raw = row[field];
    if (FLAG_FIELDS.has(field)) settings[field] = Boolean(raw);
    else if (TIME_FIELDS.has(field) || field === 'max_uses') settings[field] = raw === null ? null : Number(raw);
    else settings[field] = raw;
  }
  return {
    id: row.id, workspaceId: row.workspace_id, userId: row.user_id, username: row.username, code: row.code,
    settings: settings as unknown as BundleSettings, passwordHash: row.password_hash, createdAt: Number(row.created_at), updatedAt: Number(row.updated_at),
  };
}

function selectBundles(db: Db) {
  return db.selectFrom('bundles').leftJoin('users', 'users.id', 'bundles.user_id').selectAll('bundles').select('users.username as username');
}

export async function findBundleById(db: Db, id: number): Promise<Bundle | undefined> {
  const row = await selectBundles(db).where('bundles.id', '=', id).executeTakeFirst();
  return row === undefined ? undefined : toBundle(row as unknown as BundleRow);
}

/**
 * The link whose code is exactly `code` (case and all). A lookup by a unique key: the database
 * answers from its index, so how long it takes says nothing about how much of a code was right.
 */
export async function findBundleByCode(db: Db, code: string): Promise<Bundle | undefined> {
  const row = await selectBundles(db).where('bundles.code', '=', code).executeTakeFirst();
  return row === undefined ? undefined : toBundle(row as unknown as BundleRow);
}

/** The id of the link whose code is `code` without regard to case, if any: a code is taken when it is. */
export async function bundleIdWithCodeKey(db: Db, codeKey: string): Promise<number | undefined> {
  return (await db.selectFrom('bundles').select('id').where('code_key', '=', codeKey).executeTakeFirst())?.id;
}

export async function findBundlePaths(db: Db, bundleId: number): Promise<BundlePath[]> {
  const rows = await db.selectFrom('bundle_paths').selectAll().where('bundle_id', '=', bundleId).orderBy('id').execute();
  return rows.map((row) => ({ path: row.path, pathKey: row.path_key, recursive: Boolean(row.recursive) }));
}

/** The fields a list of links can be sorted by (Files.com's), and `id`, its own order. */
export type BundleSortField = 'id' | 'expires_at';

export interface TimeBounds { gt?: number; gteq?: number; lt?: number; lteq?: number }

export interface BundleFilter {
  /** Links of this creator only. */
  userId?: number;
  code?: string;
  codePrefix?: string;
  createdAt?: TimeBounds;
  expiresAt?: TimeBounds;
}

/** A link without an expiry sorts after every one with one (the latest time a millisecond count can be). */
export const NO_EXPIRY_SORT_VALUE = 8_640_000_000_000_000;

const BUNDLES_SORTED_BY: Readonly<Record<BundleSortField, () => RawBuilder<unknown>>> = {
  id: () => sql.ref('bundles.id'),
  expires_at: () => sql`coalesce(${sql.ref('bundles.expires_at')}, ${NO_EXPIRY_SORT_VALUE})`,
};

/** The value `bundle` has in the order by `field`, as a cursor keeps it. */
export function bundleSortValue(bundle: Bundle, field: BundleSortField): number {
  return field === 'id' ? bundle.id : (bundle.settings.expires_at ?? NO_EXPIRY_SORT_VALUE);
}

/**
 * One page of the links in `scope` (of `creatorId` only, when given: what a user who administers
 * nothing sees), in the order the page asks for (by id when none).
 */
export async function listBundlesInScope(db: Db, scope: Scope, creatorId: number | undefined, filter: BundleFilter, page: SortedPageRequest<BundleSortField>): Promise<Bundle[]> {
  const sorted = asSortedPage(page);
  const sortedBy = BUNDLES_SORTED_BY[sorted.sort.field]();
  const direction = sorted.sort.direction;
  let query = selectBundles(db).limit(sorted.limit);
  query = sorted.sort.field === 'id' ? query.orderBy('bundles.id', direction) : query.orderBy(sortedBy, direction).orderBy('bundles.id', direction);
  if (sorted.after !== undefined) query = query.where(afterInOrder(sortedBy, sql.ref('bundles.id'), direction, sorted.after));
  if (scope.kind === 'workspace') query = query.where('bundles.workspace_id', '=', scope.workspaceId);
  if (creatorId !== undefined) query = query.where('bundles.user_id', '=', creatorId);
  if (filter.userId !== undefined) query = query.where('bundles.user_id', '=', filter.userId);
  if (filter.code !== undefined) query = query.where('bundles.code', '=', filter.code);
  if (filter.codePrefix !== undefined) query = query.where(sql<boolean>`substr(${sql.ref('bundles.code')}, 1, ${filter.codePrefix.length}) = ${filter.codePrefix}`);
  if (filter.createdAt !== undefined) query = query.where(withinTimeRange('bundles.created_at', filter.createdAt));
  if (filter.expiresAt !== undefined) query = query.where(withinTimeRange('bundles.expires_at', filter.expiresAt));
  return (await query.execute()).map((row) => toBundle(row as unknown as BundleRow));
}

function settingColumns(settings: Partial<BundleSettings>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined));
}

export async function insertBundle(db: Db, bundle: {
  workspaceId: number; userId: number; code: string; settings: BundleSettings; passwordHash: string | null; paths: readonly BundlePath[]; now: number;
}): Promise<number> {
  const row = await db
    .insertInto('bundles')
    .values({
      ...(settingColumns(bundle.settings) as { permissions: string }),
      workspace_id: bundle.workspaceId, user_id: bundle.userId, code: bundle.code, code_key: bundle.code.toLowerCase(), password_hash: bundle.passwordHash,
      created_at: bundle.now, updated_at: bundle.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await replaceBundlePaths(db, row.id, bundle.paths);
  return row.id;
}

/** Writes what changes of a link: `passwordHash` undefined leaves the password, null removes it; `paths` undefined leaves them. */
export async function updateBundleRow(db: Db, id: number, change: {
  settings: Partial<BundleSettings>; code?: string; userId?: number; passwordHash?: string | null; paths?: readonly BundlePath[];
}, now: number): Promise<void> {
  const values: Record<string, unknown> = settingColumns(change.settings);
  if (change.code !== undefined) Object.assign(values, { code: change.code, code_key: change.code.toLowerCase() });
  if (change.userId !== undefined) values.user_id = change.userId;
  if (change.passwordHash !== undefined) values.password_hash = change.passwordHash;
  await db.updateTable('bundles').set({ ...values, updated_at: now }).where('id', '=', id).execute();
  if (change.paths !== undefined) await replaceBundlePaths(db, id, change.paths);
}

async function replaceBundlePaths(db: Db, bundleId: number, paths: readonly BundlePath[]): Promise<void> {
  await db.deleteFrom('bundle_paths').where('bundle_id', '=', bundleId).execute();
  if (paths.length === 0) return;
  await db.insertInto('bundle_paths')
    .values(paths.map((p) => ({ bundle_id: bundleId, path: p.path, path_key: p.pathKey, recursive: p.recursive })))
    .execute();
}

/** Deletes a link with its paths and its record (recipients, registrations, actions, downloads). */
export async function deleteBundleRow(db: Db, id: number): Promise<void> {
  await db.deleteFrom('bundles').where('id', '=', id).execute();
}
