import type { Caller } from './caller.js';
import type { Db } from '../db/database.js';
import { errors } from '../errors/catalogue.js';
import { type Automation, findAutomationById } from '../repositories/automations.js';
import { inScope, type Scope } from '../repositories/scope.js';
import { isAdministratorOf } from './authority.js';
import { listScope } from './list-scope.js';

// Who may see and manage automations (docs/automations.md#who-may). An automation acts on its
// Workspace's files with the server's authority, so only the Site Administrators and that
// Workspace's Administrators see or manage it, and its runs. To anyone else, and from another
// Workspace, it does not exist: not found, never refused, so nothing is learnt of it.

/** The automations a listing shows: those in scope to administrators of the context, none to others. */
export async function automationListScope(db: Db, caller: Caller, requestWorkspaceId: number): Promise<Scope | undefined> {
  return (await isAdministratorOf(db, caller, requestWorkspaceId)) ? listScope(caller, requestWorkspaceId) : undefined;
}

/** The automation when the caller may see (and so manage) it in this context, else `not-found`. */
export async function findVisibleAutomation(db: Db, caller: Caller, requestWorkspaceId: number, id: number): Promise<Automation> {
  const automation = await findAutomationById(db, id);
  if (automation === undefined) throw errors.automationNotFound();
  if (!inScope(listScope(caller, requestWorkspaceId), automation.workspaceId) || !(await isAdministratorOf(db, caller, automation.workspaceId))) {
    throw errors.automationNotFound();
  }
  return automation;
}

/** Creating a Workspace's automations: its administrators only. */
export async function assertMayManageAutomationsOf(db: Db, caller: Caller, workspaceId: number): Promise<void> {
  if (!(await isAdministratorOf(db, caller, workspaceId))) throw errors.workspaceAdminRequired();
}
