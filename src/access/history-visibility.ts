import type { HistoryPart } from '../repositories/history-query.js';
import { findUserById } from '../repositories/users.js';
import type { Call } from './call.js';
import { permissionReachOf } from './grant-reach.js';
import { findVisibleUser } from './user-visibility.js';

/**
 * What of History a caller may see in the request context (docs/history.md, "Who sees what"):
 * - a Site Administrator everything; having selected a Custom Workspace, that Workspace's records;
 * - a Workspace Administrator every record of the Workspaces it administers (its users, groups,
 *   grants and paths), never a site-level record or another Workspace's;
 * - a Folder Admin the file actions on the folders it administers: on and below the folder for a
 *   recursive admin grant, on the folder alone for a non-recursive one (the subtree rule of grant
 *   listing, access/grant-reach.ts);
 * - everyone its own records.
 * Authority is read from current data, as grant listing reads it: losing a role loses the view.
 * `fileActions` are History's names of the file actions a Folder Admin sees.
 */
export async function historyPartsFor(call: Call, fileActions: readonly string[]): Promise<HistoryPart[]> {
  const { db, caller, requestWorkspaceId } = call;
  if (caller.siteAdmin) return requestWorkspaceId === 0 ? [{ kind: 'everything' }] : [{ kind: 'workspace', workspaceId: requestWorkspaceId }];
  if (caller.user === null) return [];
  const reach = await permissionReachOf(db, caller);
  const inContext = (workspaceId: number) => requestWorkspaceId === 0 || workspaceId === requestWorkspaceId;
  const administered = [...reach.administeredWorkspaceIds].filter(inContext);
  const parts: HistoryPart[] = administered.map((workspaceId) => ({ kind: 'workspace', workspaceId }));
  for (const subtree of reach.folderAdminSubtrees) {
    if (!inContext(subtree.workspaceId) || administered.includes(subtree.workspaceId)) continue;
    parts.push({ kind: 'files-under', key: subtree.key, recursive: subtree.recursive, actions: fileActions });
  }
  parts.push({
    kind: 'actor',
    userId: caller.user.id,
    // In a Custom Workspace context, its own records there and its site-level ones (sign-ins).
    workspaceIds: requestWorkspaceId === 0 ? 'any' : [requestWorkspaceId, null],
  });
  return parts;
}

/**
 * A user's history may be asked for by whoever may see the user; a Site Administrator may also
 * ask for a user that no longer exists, whose records outlive it.
 */
export async function assertUserHistoryVisible(call: Call, userId: number): Promise<void> {
  if (call.caller.siteAdmin && (await findUserById(call.db, userId)) === undefined) return;
  await findVisibleUser(call.db, call.caller, call.requestWorkspaceId, userId);
}
