import {
  assertMayManageAutomationsOf, automationListScope, type Call, findVisibleAutomation, findVisibleGroup, findVisibleUser, membershipWorkspace,
} from '../access/index.js';
import type { Db } from '../db/database.js';
import { lockAndRead } from '../db/serialise.js';
import { inTransaction } from '../db/transaction.js';
import { errors } from '../errors/catalogue.js';
import { recordHistory } from '../history/index.js';
import type { SortedPageRequest } from '../lib/sorted-page.js';
import {
  type Automation, type AutomationFilter, type AutomationSettings, type AutomationSortField, DEFAULT_AUTOMATION_SETTINGS, deleteAutomationRow,
  findAutomationById, insertAutomation, listAutomationsInScope, updateAutomationRow,
} from '../repositories/automations.js';
import { type AutomationFieldsInput, checkAutomationFields, checkAutomationWhole } from './automation-fields.js';
import { automationCreated, automationDeleted, automationUpdated } from './automation-history.js';
import { newWebhook } from './automation-webhook.js';

/** An automation as an answer shows it: with its webhook secret only in the answer that made it. */
export interface AutomationView {
  automation: Automation;
  webhookSecret?: string;
}

export interface AutomationInput extends AutomationFieldsInput {
  /** The Workspace it belongs to: on creation, the request context's when absent; on a change, only its own. */
  workspace_id?: number;
}

/**
 * Fields whose change makes a schedule count from the change: no due time before it is queued
 * (docs/automations.md#schedules-and-missed-times), so enabling an automation or changing when it
 * runs never brings back times that passed.
 */
const SCHEDULE_FIELDS = new Set(['trigger', 'interval', 'recurring_days', 'schedule_days_of_week', 'schedule_times_of_day', 'schedule_time_zone', 'disabled']);

/** Fields whose change alone leaves `last_modified_at` as it was (Files.com's rule). */
const LABEL_FIELDS = new Set(['name', 'description']);

export async function listAutomations(a: Call, filter: AutomationFilter, page: SortedPageRequest<AutomationSortField>): Promise<Automation[]> {
  const scope = await automationListScope(a.db, a.caller, a.requestWorkspaceId);
  return scope === undefined ? [] : listAutomationsInScope(a.db, scope, filter, page);
}

export function getAutomation(a: Call, id: number): Promise<Automation> {
  return findVisibleAutomation(a.db, a.caller, a.requestWorkspaceId, id);
}

/** POST /automations: by an administrator of the automation's Workspace. */
export async function createAutomation(a: Call, input: AutomationInput & { automation: string }): Promise<AutomationView> {
  await assertMayManageAutomationsOf(a.db, a.caller, a.requestWorkspaceId);
  const workspaceId = await membershipWorkspace(a.db, a.caller, a.requestWorkspaceId, input.workspace_id);
  await assertMayManageAutomationsOf(a.db, a.caller, workspaceId);
  const settings: AutomationSettings = { ...DEFAULT_AUTOMATION_SETTINGS, automation: input.automation, ...checkAutomationFields(input) } as AutomationSettings;
  checkAutomationWhole(settings);
  await checkNamedUsersAndGroups(a, workspaceId, settings);
  const webhook = settings.trigger === 'webhook' ? newWebhook() : undefined;
  const created = await inTransaction(a.db, async (tx) => {
    const automation = await insertAutomation(tx, {
      workspaceId, settings, webhook: webhook === undefined ? null : { id: webhook.id, secretHash: webhook.secretHash }, userId: a.caller.user?.id ?? null, now: a.now,
    });
    await recordHistory(tx, a, [automationCreated(automation)]);
    return automation;
  });
  return { automation: created, ...(webhook === undefined ? {} : { webhookSecret: webhook.secret }) };
}

/**
 * PATCH /automations/<id>: what is sent changes, the rest stays; `workspace_id` is refused (an
 * automation stays in the Workspace it was made in). A trigger that becomes `webhook` gets a new
 * secret URL; one that stops being `webhook` loses it. Nothing to change: no write, no record.
 */
export async function updateAutomation(a: Call, id: number, input: AutomationInput): Promise<AutomationView> {
  // The form of what is sent first: a malformed request is refused as such, whichever automation it names.
  const sent = checkAutomationFields(input);
  const found = await findVisibleAutomation(a.db, a.caller, a.requestWorkspaceId, id);
  if (input.workspace_id !== undefined && input.workspace_id !== found.workspaceId) {
    throw errors.paramsInvalid({ workspace_id: ['cannot be changed: an automation stays in the Workspace it was created in'] });
  }
  await checkNamedUsersAndGroups(a, found.workspaceId, sent);
  let secret: string | undefined;
  await inTransaction(a.db, async (tx) => {
    const before = await lockedAutomation(tx, found.id);
    const merged = { ...before.settings, ...sent };
    checkAutomationWhole(merged);
    const changed = Object.fromEntries(Object.entries(sent)
      .filter(([field, value]) => JSON.stringify(before.settings[field as keyof AutomationSettings]) !== JSON.stringify(value))) as Partial<AutomationSettings>;
    const wantsWebhook = merged.trigger === 'webhook';
    const webhook = wantsWebhook && before.webhookId === null ? newWebhook() : undefined;
    const dropsWebhook = !wantsWebhook && before.webhookId !== null;
    if (Object.keys(changed).length === 0 && webhook === undefined && !dropsWebhook) return;
    await updateAutomationRow(tx, before.id, {
      settings: changed,
      ...(webhook !== undefined ? { webhook: { id: webhook.id, secretHash: webhook.secretHash } } : dropsWebhook ? { webhook: null } : {}),
      lastModified: Object.keys(changed).some((field) => !LABEL_FIELDS.has(field)),
      rescheduled: Object.keys(changed).some((field) => SCHEDULE_FIELDS.has(field)),
    }, a.now);
    const after = (await findAutomationById(tx, before.id)) as Automation;
    await recordHistory(tx, a, [automationUpdated(before, after)]);
    secret = webhook?.secret;
  });
  const automation = await findAutomationById(a.db, found.id);
  if (automation === undefined) throw errors.automationNotFound();
  return { automation, ...(secret === undefined ? {} : { webhookSecret: secret }) };
}

/** DELETE /automations/<id>: the automation goes with its runs, recorded. */
export async function deleteAutomation(a: Call, id: number): Promise<void> {
  const found = await findVisibleAutomation(a.db, a.caller, a.requestWorkspaceId, id);
  await inTransaction(a.db, async (tx) => {
    const current = await lockedAutomation(tx, found.id);
    await deleteAutomationRow(tx, current.id);
    await recordHistory(tx, a, [automationDeleted(current)]);
  });
}

/**
 * The users and groups an automation names must be ones the caller can see; a group must be of
 * the automation's Workspace (another Workspace's group is not that Workspace's to name).
 */
async function checkNamedUsersAndGroups(a: Call, workspaceId: number, settings: Partial<AutomationSettings>): Promise<void> {
  for (const userId of settings.user_ids ?? []) await findVisibleUser(a.db, a.caller, a.requestWorkspaceId, userId);
  for (const groupId of settings.group_ids ?? []) {
    const group = await findVisibleGroup(a.db, a.caller, a.requestWorkspaceId, groupId);
    if (group.workspaceId !== workspaceId) throw errors.groupNotFound();
  }
}

async function lockedAutomation(tx: Db, id: number): Promise<Automation> {
  const found = await lockAndRead(tx, 'automations', id, findAutomationById);
  if (found === undefined) throw errors.automationNotFound();
  return found;
}
