import { type Selectable, sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { Tables } from '../db/tables.js';
import type { IdPageRequest } from '../lib/sorted-page.js';
import type { Scope } from './scope.js';
import { withinTimeRange } from './time-range.js';

// What happens to a share link, kept beside it (docs/sharing.md#what-a-link-records): the people it
// was shared with, and what its visitors did. The public page writes the visitors' part through
// insertBundleRegistration, insertBundleAction and insertBundleDownload.

/** Someone a link was shared with. Atrium sends no mail, so `sentAt` stays null. */
export interface BundleRecipient {
  id: number;
  bundleId: number;
  workspaceId: number;
  recipient: string;
  name: string | null;
  company: string | null;
  note: string | null;
  sentAt: number | null;
  createdAt: number;
}

export interface NewBundleRecipient {
  recipient: string;
  name: string | null;
  company: string | null;
  note: string | null;
}

export interface BundleRegistration {
  id: number;
  bundleId: number;
  workspaceId: number;
  bundleRecipientId: number | null;
  /** The code of its link, as the link has it now. */
  bundleCode: string | null;
  code: string;
  name: string | null;
  email: string | null;
  company: string | null;
  ip: string | null;
  createdAt: number;
}

/** Files.com's BundleAction `action` values. */
export const BUNDLE_ACTIONS = ['create', 'read', 'update', 'destroy', 'move', 'copy', 'registration'] as const;
export type BundleActionKind = (typeof BUNDLE_ACTIONS)[number];

export interface BundleAction {
  id: number;
  bundleId: number;
  workspaceId: number;
  action: string;
  path: string | null;
  source: string | null;
  destination: string | null;
  createdAt: number;
  registration: BundleRegistration | null;
}

export const BUNDLE_DOWNLOAD_METHODS = ['file', 'full_zip'] as const;
export type BundleDownloadMethod = (typeof BUNDLE_DOWNLOAD_METHODS)[number];

export interface BundleDownload {
  id: number;
  bundleId: number;
  workspaceId: number;
  downloadMethod: string;
  path: string | null;
  createdAt: number;
  registration: BundleRegistration | null;
}

type RecipientRow = { id: number; bundle_id: number; workspace_id: number; recipient: string; name: string | null; company: string | null; note: string | null; sent_at: number | string | null; created_at: number | string };

function toRecipient(row: RecipientRow): BundleRecipient {
  return {
    id: row.id, bundleId: row.bundle_id, workspaceId: row.workspace_id, recipient: row.recipient, name: row.name, company: row.company, note: row.note,
    sentAt: row.sent_at === null ? null : Number(row.sent_at), createdAt: Number(row.created_at),
  };
}

/** The recipients of a link whose addresses are among `keys` (lower-cased addresses). */
export async function recipientKeysOf(db: Db, bundleId: number, keys: readonly string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db.selectFrom('bundle_recipients').select('recipient_key').where('bundle_id', '=', bundleId).where('recipient_key', 'in', keys).execute();
  return new Set(rows.map((row) => row.recipient_key));
}

/** Records recipients of a link; each address must not be recorded for it yet. */
export async function insertBundleRecipients(db: Db, bundle: { id: number; workspaceId: number }, recipients: readonly NewBundleRecipient[], now: number): Promise<BundleRecipient[]> {
  if (recipients.length === 0) return [];
  const rows = await db.insertInto('bundle_recipients')
    .values(recipients.map((r) => ({
      bundle_id: bundle.id, workspace_id: bundle.workspaceId, recipient: r.recipient, recipient_key: r.recipient.toLowerCase(),
      name: r.name, company: r.company, note: r.note, sent_at: null, created_at: now,
    })))
    .returningAll()
    .execute();
  return rows.map((row) => toRecipient(row as RecipientRow)).sort((a, b) => a.id - b.id);
}

export interface BundleRecipientFilter {
  /** Only those who registered on the link (true), or only those who did not (false). */
  hasRegistrations?: boolean;
}

export async function listBundleRecipients(db: Db, bundleId: number, filter: BundleRecipientFilter, page: IdPageRequest): Promise<BundleRecipient[]> {
  let query = db.selectFrom('bundle_recipients').selectAll().where('bundle_id', '=', bundleId).where('id', '>', page.afterId).orderBy('id').limit(page.limit);
  if (filter.hasRegistrations !== undefined) {
    const registered = sql<boolean>`exists (select 1 from bundle_registrations where bundle_registrations.bundle_recipient_id = bundle_recipients.id)`;
    query = query.where(filter.hasRegistrations ? registered : sql<boolean>`not ${registered}`);
  }
  return (await query.execute()).map((row) => toRecipient(row as RecipientRow));
}

type RegistrationRow = {
  id: number; bundle_id: number; workspace_id: number; bundle_recipient_id: number | null; code: string; name: string | null; email: string | null;
  company: string | null; ip: string | null; created_at: number | string;
};

function toRegistration(row: RegistrationRow, bundleCodes: ReadonlyMap<number, string>): BundleRegistration {
  return {
    id: row.id, bundleId: row.bundle_id, workspaceId: row.workspace_id, bundleRecipientId: row.bundle_recipient_id, bundleCode: bundleCodes.get(row.bundle_id) ?? null, code: row.code, name: row.name,
    email: row.email, company: row.company, ip: row.ip, createdAt: Number(row.created_at),
  };
}

/**
 * Records a visitor's registration on a link's public page (the public page calls it). `code` is
 * the registration's own random code, which the page keeps in the visitor's cookie; a recipient
 * whose address the visitor gave is named by `bundleRecipientId`.
 */
export async function insertBundleRegistration(db: Db, registration: {
  bundleId: number; workspaceId: number; bundleRecipientId: number | null; code: string; name: string | null; email: string | null;
  company: string | null; ip: string | null; now: number;
}): Promise<BundleRegistration> {
  const row = await db.insertInto('bundle_registrations')
    .values({
      bundle_id: registration.bundleId, workspace_id: registration.workspaceId, bundle_recipient_id: registration.bundleRecipientId, code: registration.code,
      name: registration.name, email: registration.email, company: registration.company, ip: registration.ip, created_at: registration.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toRegistration(row as RegistrationRow, await bundleCodesOf(db, [row.bundle_id]));
}

/** The codes of the links `ids`, by id. */
async function bundleCodesOf(db: Db, ids: readonly number[]): Promise<Map<number, string>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom('bundles').select(['id', 'code']).where('id', 'in', wanted).execute();
  return new Map(rows.map((row) => [row.id, row.code]));
}

/** A registration by its own code (the visitor's cookie), of the link `bundleId` only. */
export async function findBundleRegistrationByCode(db: Db, bundleId: number, code: string): Promise<BundleRegistration | undefined> {
  const row = await db.selectFrom('bundle_registrations').selectAll().where('code', '=', code).where('bundle_id', '=', bundleId).executeTakeFirst();
  return row === undefined ? undefined : toRegistration(row as RegistrationRow, await bundleCodesOf(db, [row.bundle_id]));
}

/**
 * Which links a listing of records covers: one link, or every link in a Workspace scope (of one
 * creator only, for a caller who administers nothing there).
 */
export type BundleRecordScope = { bundleId: number } | { scope: Scope; creatorId?: number };

type RecordTable = 'bundle_registrations' | 'bundle_actions' | 'bundle_downloads';

/** The records of `table` that belong to the links `scope` covers. */
function recordsOf<T extends RecordTable>(db: Db, table: T, scope: BundleRecordScope) {
  const query = db.selectFrom(table as RecordTable);
  if ('bundleId' in scope) return query.where('bundle_id', '=', scope.bundleId);
  return query.where('bundle_id', 'in', (eb) => {
    let links = eb.selectFrom('bundles').select('bundles.id');
    if (scope.scope.kind === 'workspace') links = links.where('bundles.workspace_id', '=', scope.scope.workspaceId);
    if (scope.creatorId !== undefined) links = links.where('bundles.user_id', '=', scope.creatorId);
    return links;
  });
}

export async function listBundleRegistrations(db: Db, scope: BundleRecordScope, page: IdPageRequest): Promise<BundleRegistration[]> {
  const rows = await recordsOf(db, 'bundle_registrations', scope).selectAll().where('id', '>', page.afterId).orderBy('id').limit(page.limit).execute();
  const codes = await bundleCodesOf(db, rows.map((row) => row.bundle_id));
  return rows.map((row) => toRegistration(row as RegistrationRow, codes));
}

async function registrationsById(db: Db, ids: readonly (number | null)[]): Promise<Map<number, BundleRegistration>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom('bundle_registrations').selectAll().where('id', 'in', wanted).execute();
  const codes = await bundleCodesOf(db, rows.map((row) => row.bundle_id));
  return new Map(rows.map((row) => [row.id, toRegistration(row as RegistrationRow, codes)]));
}

/** Records what a visitor did through a link (the public page calls it). Paths are qualified site paths. */
export async function insertBundleAction(db: Db, action: {
  bundleId: number; workspaceId: number; bundleRegistrationId: number | null; action: BundleActionKind; path: string | null;
  source?: string | null; destination?: string | null; now: number;
}): Promise<number> {
  const row = await db.insertInto('bundle_actions')
    .values({
      bundle_id: action.bundleId, workspace_id: action.workspaceId, bundle_registration_id: action.bundleRegistrationId, action: action.action,
      path: action.path, source: action.source ?? null, destination: action.destination ?? null, created_at: action.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface BundleRecordFilter {
  bundleRegistrationId?: number;
  createdAt?: { gt?: number; gteq?: number; lt?: number; lteq?: number };
}

export async function listBundleActions(db: Db, scope: BundleRecordScope, filter: BundleRecordFilter, page: IdPageRequest): Promise<BundleAction[]> {
  const { rows, registrations } = await recordPage(db, 'bundle_actions', scope, filter, page);
  return rows.map((row) => ({
    id: row.id, bundleId: row.bundle_id, workspaceId: row.workspace_id, action: row.action, path: row.path, source: row.source, destination: row.destination,
    createdAt: Number(row.created_at), registration: row.bundle_registration_id === null ? null : (registrations.get(row.bundle_registration_id) ?? null),
  }));
}

/**
 * One page of a link's actions or downloads (they are filtered alike), oldest first, with the
 * registrations they were made under, read in one more query.
 */
async function recordPage<T extends 'bundle_actions' | 'bundle_downloads'>(
  db: Db, table: T, scope: BundleRecordScope, filter: BundleRecordFilter, page: IdPageRequest,
): Promise<{ rows: Selectable<Tables[T]>[]; registrations: Map<number, BundleRegistration> }> {
  let query = recordsOf(db, table, scope).selectAll().where('id', '>', page.afterId).orderBy('id').limit(page.limit);
  if (filter.bundleRegistrationId !== undefined) query = query.where('bundle_registration_id', '=', filter.bundleRegistrationId);
  if (filter.createdAt !== undefined) query = query.where(withinTimeRange('created_at', filter.createdAt));
  const rows = await query.execute();
  return { rows: rows as Selectable<Tables[T]>[], registrations: await registrationsById(db, rows.map((row) => row.bundle_registration_id)) };
}

/** Records a download through a link (the public page calls it). `path` is a qualified site path; null for a whole-link ZIP. */
export async function insertBundleDownload(db: Db, download: {
  bundleId: number; workspaceId: number; bundleRegistrationId: number | null; downloadMethod: BundleDownloadMethod; path: string | null; now: number;
}): Promise<number> {
  const row = await db.insertInto('bundle_downloads')
    .values({
      bundle_id: download.bundleId, workspace_id: download.workspaceId, bundle_registration_id: download.bundleRegistrationId,
      download_method: download.downloadMethod, path: download.path, created_at: download.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function listBundleDownloads(db: Db, scope: BundleRecordScope, filter: BundleRecordFilter, page: IdPageRequest): Promise<BundleDownload[]> {
  const { rows, registrations } = await recordPage(db, 'bundle_downloads', scope, filter, page);
  return rows.map((row) => ({
    id: row.id, bundleId: row.bundle_id, workspaceId: row.workspace_id, downloadMethod: row.download_method, path: row.path, createdAt: Number(row.created_at),
    registration: row.bundle_registration_id === null ? null : (registrations.get(row.bundle_registration_id) ?? null),
  }));
}
