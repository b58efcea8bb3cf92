import {
  assertMayManagePartnersOf, assertRootHoldsGrants, findVisibleGroup, findVisiblePartner, findVisibleUser, mayReadPartnerNotes, membershipWorkspace, partnerVisibility,
  userVisibility, type Call,
} from '../access/index.js';
import type { Db } from '../db/database.js';
import { lockAndRead } from '../db/serialise.js';
import { inTransaction } from '../db/transaction.js';
import { errors } from '../errors/catalogue.js';
import { recordHistory } from '../history/index.js';
import type { SortedPageRequest } from '../lib/sorted-page.js';
import { refusingDuplicates } from '../repositories/constraint-errors.js';
import {
  deletePartnerRow, findPartnerById, insertPartner, listPartnersInScope, type Partner, type PartnerFilter, partnerNameTaken, type PartnerSettings,
  type PartnerSortField, updatePartnerRow,
} from '../repositories/partners.js';
import { usersOfPartners } from '../repositories/users.js';
import { deletePartnerUsers } from '../directory/index.js';
import { deletePartnerGrants, grantsOfPartner } from '../grants/index.js';
import { checkPartnerName, checkPartnerSettings } from './partner-fields.js';
import { partnerCreated, partnerDeleted, partnerUpdated } from './partner-history.js';
import { ensurePartnerRoot, partnerRootSite, shownRootFolder } from './partner-root.js';

/** A Partner as one caller is shown it: the notes only to those who may read them, and its users. */
export interface PartnerView {
  partner: Partner;
  notesShown: boolean;
  userIds: number[];
  partnerAdminIds: number[];
}

export interface PartnerInput {
  name?: string;
  rootFolder?: string;
  /** The Workspace it belongs to: on creation, the request context's when absent; on a change, only its own. */
  workspaceId?: number;
  settings?: Partial<PartnerSettings>;
}

export async function listPartners(a: Call, filter: PartnerFilter, page: SortedPageRequest<PartnerSortField>): Promise<PartnerView[]> {
  const visibility = await partnerVisibility(a.db, a.caller, a.requestWorkspaceId);
  if (visibility.everyone) return viewsOf(a, await listPartnersInScope(a.db, visibility.scope, filter, page));
  // A Partner's own users see their Partner, and no other.
  if (visibility.ownPartnerId === null) return [];
  return viewsOf(a, await listPartnersInScope(a.db, visibility.scope, { ...filter, id: visibility.ownPartnerId }, page));
}

export async function getPartner(a: Call, id: number): Promise<PartnerView> {
  const [view] = await viewsOf(a, [await findVisiblePartner(a.db, a.caller, a.requestWorkspaceId, id)]);
  return view as PartnerView;
}

/** POST /partners: by an administrator of the Partner's Workspace; its root folder is made if missing. */
export async function createPartner(a: Call, input: PartnerInput & { name: string; rootFolder: string }): Promise<PartnerView> {
  await assertMayManagePartnersOf(a.db, a.caller, a.requestWorkspaceId);
  const workspaceId = await membershipWorkspace(a.db, a.caller, a.requestWorkspaceId, input.workspaceId);
  await assertMayManagePartnersOf(a.db, a.caller, workspaceId);
  const name = checkPartnerName(input.name);
  const site = partnerRootSite(workspaceId, input.rootFolder);
  const settings = checkPartnerSettings(input.settings ?? {});
  await checkResponsibleParty(a, workspaceId, settings);
  if (await partnerNameTaken(a.db, workspaceId, name)) throw partnerNameTakenError();
  // Another request creating the same name at the same moment: the unique key decides.
  const created = await refusingDuplicates(() => inTransaction(a.db, async (tx) => {
    const root = await ensurePartnerRoot(tx, site, a.now, a.caller.user?.id ?? null);
    const partner = await insertPartner(tx, { workspaceId, name, rootFolder: shownRootFolder(workspaceId, root.path), now: a.now, settings });
    await recordHistory(tx, a, [partnerCreated(partner), ...root.created]);
    return partner;
  }), partnerNameTakenError);
  return (await viewsOf(a, [created]))[0] as PartnerView;
}

/**
 * PATCH /partners/<id>: what is sent changes, the rest stays; `workspace_id` is refused (a Partner
 * stays in the Workspace it was made in). A new root folder is made if missing. Nothing to
 * change: no write, no record.
 */
export async function updatePartner(a: Call, id: number, input: PartnerInput): Promise<PartnerView> {
  const partner = await findVisiblePartner(a.db, a.caller, a.requestWorkspaceId, id);
  await assertMayManagePartnersOf(a.db, a.caller, partner.workspaceId);
  if (input.workspaceId !== undefined && input.workspaceId !== partner.workspaceId) {
    throw errors.paramsInvalid({ workspace_id: ['cannot be changed: a Partner stays in the Workspace it was created in'] });
  }
  const name = input.name === undefined ? undefined : checkPartnerName(input.name);
  const site = input.rootFolder === undefined ? undefined : partnerRootSite(partner.workspaceId, input.rootFolder);
  const settings = checkPartnerSettings(input.settings ?? {});
  await checkResponsibleParty(a, partner.workspaceId, settings);
  if (name !== undefined && (await partnerNameTaken(a.db, partner.workspaceId, name, partner.id))) throw partnerNameTakenError();
  await refusingDuplicates(() => inTransaction(a.db, async (tx) => {
    const before = await lockedPartner(tx, partner.id);
    // The root folder changes only when it names another folder; its spelling alone is kept as it
    // is. A new one must hold the Partner's grants, read in this transaction after the Partner
    // was locked (a grant for it is created only inside its current root).
    const moves = site !== undefined && site.key !== sitePathKeyOf(before);
    if (moves) assertRootHoldsGrants(site, await grantsOfPartner({ ...a, db: tx }, before.id), (path) => shownRootFolder(before.workspaceId, path));
    const root = moves ? await ensurePartnerRoot(tx, site, a.now, a.caller.user?.id ?? null) : undefined;
    const changedSettings = Object.fromEntries(Object.entries(settings)
      .filter(([field, value]) => value !== undefined && before.settings[field as keyof PartnerSettings] !== value)) as Partial<PartnerSettings>;
    const change = {
      ...(name !== undefined && name !== before.name ? { name } : {}),
      ...(root === undefined ? {} : { rootFolder: shownRootFolder(before.workspaceId, root.path) }),
      settings: changedSettings,
    };
    if (change.name === undefined && change.rootFolder === undefined && Object.keys(changedSettings).length === 0) return;
    await updatePartnerRow(tx, before.id, change, a.now);
    const after = (await findPartnerById(tx, before.id)) as Partner;
    await recordHistory(tx, a, [partnerUpdated(before, after), ...(root?.created ?? [])]);
  }), partnerNameTakenError);
  return getPartnerUnchecked(a, partner.id);
}

/**
 * DELETE /partners/<id>: the Partner goes with its grants and its users (their keys, sessions and
 * SSH keys go with them, as with any user deleted), each recorded; its root folder and the files
 * in it stay.
 */
export async function deletePartner(a: Call, id: number): Promise<void> {
  const partner = await findVisiblePartner(a.db, a.caller, a.requestWorkspaceId, id);
  await assertMayManagePartnersOf(a.db, a.caller, partner.workspaceId);
  await inTransaction(a.db, async (tx) => {
    const current = await lockedPartner(tx, partner.id);
    const grantEvents = await deletePartnerGrants({ ...a, db: tx }, current.id);
    const userEvents = await deletePartnerUsers(tx, current.id);
    await deletePartnerRow(tx, current.id);
    await recordHistory(tx, a, [partnerDeleted(current), ...grantEvents, ...userEvents]);
  });
}

/**
 * The responsible user and group must be ones the caller can see; the group must be of the
 * Partner's Workspace (a group of another Workspace is not that Workspace's to name).
 */
async function checkResponsibleParty(a: Call, workspaceId: number, settings: Partial<PartnerSettings>): Promise<void> {
  if (settings.responsibleUserId !== undefined && settings.responsibleUserId !== null) {
    await findVisibleUser(a.db, a.caller, a.requestWorkspaceId, settings.responsibleUserId);
  }
  if (settings.responsibleGroupId !== undefined && settings.responsibleGroupId !== null) {
    const group = await findVisibleGroup(a.db, a.caller, a.requestWorkspaceId, settings.responsibleGroupId);
    if (group.workspaceId !== workspaceId) throw errors.groupNotFound();
  }
}

async function seenUsers(a: Call): Promise<ReadonlySet<number>> {
  const visibility = await userVisibility(a.db, a.caller, a.requestWorkspaceId);
  return new Set(visibility.alsoIds);
}

function sitePathKeyOf(partner: Partner): string {
  return partnerRootSite(partner.workspaceId, partner.rootFolder).key;
}

async function lockedPartner(tx: Db, id: number): Promise<Partner> {
  const found = await lockAndRead(tx, 'partners', id, findPartnerById);
  if (found === undefined) throw errors.partnerNotFound();
  return found;
}

function partnerNameTakenError(): Error {
  return errors.modelSaveError({ name: ['has already been taken'] });
}

async function getPartnerUnchecked(a: Call, id: number): Promise<PartnerView> {
  const partner = await findPartnerById(a.db, id);
  if (partner === undefined) throw errors.partnerNotFound();
  return (await viewsOf(a, [partner]))[0] as PartnerView;
}

/** Each Partner with whether the caller reads its notes (asked once per Workspace) and its users. */
async function viewsOf(a: Call, partners: readonly Partner[]): Promise<PartnerView[]> {
  const byWorkspace = new Map<number, boolean>();
  for (const partner of partners) {
    if (!byWorkspace.has(partner.workspaceId)) byWorkspace.set(partner.workspaceId, await mayReadPartnerNotes(a.db, a.caller, partner));
  }
  const members = await usersOfPartners(a.db, partners.map((partner) => partner.id));
  // Who does not administer the Partner is shown only the users it may see (itself, and for a
  // Partner Admin who manages users, the Partner's): the list names no one it could not look up.
  const seen = await seenUsers(a);
  return partners.map((partner) => {
    const own = members.filter((member) => member.partnerId === partner.id && (byWorkspace.get(partner.workspaceId) === true || seen.has(member.id)));
    return {
      partner, notesShown: byWorkspace.get(partner.workspaceId) ?? false,
      userIds: own.map((member) => member.id), partnerAdminIds: own.filter((member) => member.partnerAdmin).map((member) => member.id),
    };
  });
}

