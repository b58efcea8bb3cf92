import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.js';
import { cachedRead } from '../db/read-cache.js';
import { asSortedPage, type SortedPageRequest } from '../lib/sorted-page.js';
import { afterInOrder } from './keyset-order.js';
import type { Scope } from './scope.js';

/** A Partner (docs/partners.md): an outside organisation of one Workspace, with its root folder. */
export interface Partner {
  id: number;
  workspaceId: number;
  name: string;
  /** A folder path inside the Partner's Workspace, relative to its root, in its display spelling. */
  rootFolder: string;
  createdAt: number;
  updatedAt: number;
  settings: PartnerSettings;
}

/** What a Partner's administrators set besides its name and root folder (Files.com's Partner fields). */
export interface PartnerSettings {
  notes: string;
  /** Canonical comma-separated tags; empty for none. */
  tags: string;
  /** Canonical newline-separated addresses and CIDR ranges; empty restricts nothing. */
  allowedIps: string;
  allowBypassing2faPolicies: boolean;
  allowCredentialChanges: boolean;
  allowProvidingGpgKeys: boolean;
  allowUserCreation: boolean;
  ccEmailsToResponsibleParty: boolean;
  responsibleUserId: number | null;
  responsibleGroupId: number | null;
}

export const DEFAULT_PARTNER_SETTINGS: PartnerSettings = Object.freeze({
  notes: '', tags: '', allowedIps: '', allowBypassing2faPolicies: false, allowCredentialChanges: false, allowProvidingGpgKeys: false,
  allowUserCreation: false, ccEmailsToResponsibleParty: false, responsibleUserId: null, responsibleGroupId: null,
});

const SETTING_COLUMNS = {
  notes: 'notes', tags: 'tags', allowedIps: 'allowed_ips', allowBypassing2faPolicies: 'allow_bypassing_2fa_policies',
  allowCredentialChanges: 'allow_credential_changes', allowProvidingGpgKeys: 'allow_providing_gpg_keys', allowUserCreation: 'allow_user_creation',
  ccEmailsToResponsibleParty: 'cc_emails_to_responsible_party', responsibleUserId: 'responsible_user_id', responsibleGroupId: 'responsible_group_id',
} as const satisfies Record<keyof PartnerSettings, string>;

function settingColumns(settings: Partial<PartnerSettings>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined).map(([k, v]) => [SETTING_COLUMNS[k as keyof PartnerSettings], v]));
}

interface PartnerRow {
  id: number; workspace_id: number; name: string; root_folder: string; created_at: number; updated_at: number;
  notes: string; tags: string; allowed_ips: string;
  allow_bypassing_2fa_policies: boolean | number; allow_credential_changes: boolean | number; allow_providing_gpg_keys: boolean | number;
  allow_user_creation: boolean | number; cc_emails_to_responsible_party: boolean | number;
  responsible_user_id: number | null; responsible_group_id: number | null;
}

function toPartner(row: PartnerRow): Partner {
  return {
    id: row.id, workspaceId: row.workspace_id, name: row.name, rootFolder: row.root_folder, createdAt: Number(row.created_at), updatedAt: Number(row.updated_at),
    settings: {
      notes: row.notes, tags: row.tags, allowedIps: row.allowed_ips,
      allowBypassing2faPolicies: Boolean(row.allow_bypassing_2fa_policies),
      allowCredentialChanges: Boolean(row.allow_credential_changes),
      allowProvidingGpgKeys: Boolean(row.allow_providing_gpg_keys),
      allowUserCreation: Boolean(row.allow_user_creation),
      ccEmailsToResponsibleParty: Boolean(row.cc_emails_to_responsible_party),
      responsibleUserId: row.responsible_user_id, responsibleGroupId: row.responsible_group_id,
    },
  };
}

/** Names compare without regard to case or Unicode spelling. */
export function partnerNameKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

export async function findPartnerById(db: Db, id: number): Promise<Partner | undefined> {
  const row = await db.selectFrom('partners').selectAll().where('id', '=', id).executeTakeFirst();
  return row === undefined ? undefined : toPartner(row);
}

/**
 * A Partner's `allowed_ips` (one entry a line; empty when it has none, or no longer exists). Read
 * on every request of its users through the read cache, as groups' lists are: it changes only
 * with a write.
 */
export function partnerAddressList(db: Db, id: number): Promise<string> {
  return cachedRead(db, 'partner-address-list', String(id), async () => {
    const row = await db.selectFrom('partners').select('allowed_ips').where('id', '=', id).executeTakeFirst();
    return row?.allowed_ips ?? '';
  });
}

/** The fields a list of Partners can be sorted by (Files.com's: `workspace_id` and `id`). */
export type PartnerSortField = 'id' | 'workspace_id';

export interface PartnerFilter {
  workspaceId?: number;
  /** That one Partner only (a Partner user's own). */
  id?: number;
}

const PARTNERS_SORTED_BY: Readonly<Record<PartnerSortField, () => RawBuilder<unknown>>> = {
  id: () => sql.ref('id'),
  workspace_id: () => sql.ref('workspace_id'),
};

/** The value `partner` has in the order by `field`, as a cursor keeps it. */
export function partnerSortValue(partner: Partner, field: PartnerSortField): number {
  return field === 'id' ? partner.id : partner.workspaceId;
}

/** One page of the Partners in `scope`, in the order the page asks for (by id when none). */
export async function listPartnersInScope(db: Db, scope: Scope, filter: PartnerFilter, page: SortedPageRequest<PartnerSortField>): Promise<Partner[]> {
  const sorted = asSortedPage(page);
  const sortedBy = PARTNERS_SORTED_BY[sorted.sort.field]();
  const direction = sorted.sort.direction;
  let query = db.selectFrom('partners').selectAll().limit(sorted.limit);
  query = sorted.sort.field === 'id' ? query.orderBy('id', direction) : query.orderBy(sortedBy, direction).orderBy('id', direction);
  if (sorted.after !== undefined) query = query.where(afterInOrder(sortedBy, sql.ref('id'), direction, sorted.after));
  if (scope.kind === 'workspace') query = query.where('workspace_id', '=', scope.workspaceId);
  if (filter.workspaceId !== undefined) query = query.where('workspace_id', '=', filter.workspaceId);
  if (filter.id !== undefined) query = query.where('id', '=', filter.id);
  return (await query.execute()).map(toPartner);
}

export async function partnerNameTaken(db: Db, workspaceId: number, name: string, exceptPartnerId?: number): Promise<boolean> {
  let query = db.selectFrom('partners').select('id').where('workspace_id', '=', workspaceId).where('name_key', '=', partnerNameKey(name));
  if (exceptPartnerId !== undefined) query = query.where('id', '!=', exceptPartnerId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function insertPartner(db: Db, partner: { workspaceId: number; name: string; rootFolder: string; now: number; settings: Partial<PartnerSettings> }): Promise<Partner> {
  const row = await db
    .insertInto('partners')
    .values({
      workspace_id: partner.workspaceId, name: partner.name, name_key: partnerNameKey(partner.name), root_folder: partner.rootFolder,
      created_at: partner.now, updated_at: partner.now, responsible_user_id: null, responsible_group_id: null, ...settingColumns(partner.settings),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toPartner(row);
}

/** Writes what changes of a Partner; nothing given, nothing written. */
export async function updatePartnerRow(db: Db, id: number, change: { name?: string; rootFolder?: string; settings: Partial<PartnerSettings> }, now: number): Promise<void> {
  const values: Record<string, unknown> = settingColumns(change.settings);
  if (change.name !== undefined) Object.assign(values, { name: change.name, name_key: partnerNameKey(change.name) });
  if (change.rootFolder !== undefined) values.root_folder = change.rootFolder;
  if (Object.keys(values).length === 0) return;
  await db.updateTable('partners').set({ ...values, updated_at: now }).where('id', '=', id).execute();
}

export async function deletePartnerRow(db: Db, id: number): Promise<void> {
  await db.deleteFrom('partners').where('id', '=', id).execute();
}

/** The names of these Partners, by id (ids of Partners gone are absent). */
export async function partnerNamesByIds(db: Db, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('partners').select(['id', 'name']).where('id', 'in', [...new Set(ids)]).execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}
