import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import type { NearMissReason, Reason } from '../../authz/index.js';
import { explainAccess, type Explanation } from '../../grants/index.js';
import { idArgument } from '../arguments.js';
import { findUserByName } from '../find-user.js';
import { siteCall } from '../site-caller.js';
import { withSiteDatabase } from '../site-database.js';
import { configOf } from '../settings-options.js';

/** `atrium explain`: what a user may do on a path, and which grants and roles say so. */
export function addExplainCommand(program: Command, io: CliIo): void {
  program.command('explain')
    .description('explain what a user may do on a path, and why')
    .requiredOption('--user <username>', 'whose access to explain')
    .requiredOption('--path <path>', 'the path, as the Workspace sees it')
    .option('--workspace <id>', 'the Workspace the path is in (default 0, the whole site)', idArgument)
    .option('--json', 'print the explanation as JSON')
    .action(async (options: { user: string; path: string; workspace?: number; json?: boolean }, command: Command) => {
      const explanation = await withSiteDatabase(configOf(command, io.env), io.stderr, async (database) => {
        const call = siteCall(database.db, options.workspace ?? 0);
        const user = await findUserByName(call, options.user);
        return explainAccess(call, { path: options.path, userId: user.id });
      });
      io.stdout.write(options.json === true ? `${JSON.stringify(explanationJson(explanation), null, 2)}\n` : explanationText(options.user, explanation));
    });
}

function explanationJson(explanation: Explanation): object {
  const { decision } = explanation;
  return {
    path: explanation.site.path,
    type: explanation.type,
    path_exists: explanation.pathExists,
    workspace_id: decision.workspaceId,
    user_id: explanation.userId,
    site_admin: decision.siteAdmin,
    workspace_admin: decision.workspaceAdmin,
    folder_admin: decision.folderAdmin,
    capabilities: decision.capabilities,
    reasons: decision.reasons,
    near_misses: decision.nearMisses,
  };
}

function explanationText(username: string, explanation: Explanation): string {
  const { decision } = explanation;
  const roles = [decision.siteAdmin && 'Site Administrator', decision.workspaceAdmin && 'Workspace Administrator', decision.folderAdmin && 'Folder Administrator'].filter(Boolean);
  const lines = [
    `${username} on ${explanation.site.path || '/'} (${explanation.type}, Workspace ${decision.workspaceId})`,
    ...(explanation.pathExists ? [] : ['  nothing stands at this path (yet)']),
    `  capabilities: ${decision.capabilities.length === 0 ? 'none' : decision.capabilities.join(', ')}`,
    `  roles: ${roles.length === 0 ? 'none' : roles.join(', ')}`,
    ...decision.reasons.map((reason) => `  because: ${reasonText(reason, explanation)}`),
    ...decision.nearMisses.map((miss) => `  did not apply: grant ${miss.permissionId} (${miss.level}${miss.recursive ? '' : ', not recursive'}) on ${miss.pathKey || '/'}: ${miss.reasons.map(nearMissText).join('; ')}`),
  ];
  return `${lines.join('\n')}\n`;
}

function reasonText(reason: Reason, explanation: Explanation): string {
  const what = reason.kind === 'capability' ? reason.capability : `role ${reason.role}`;
  const source = reason.source;
  if (source.kind === 'grant') {
    const record = explanation.grants.get(source.permissionId)?.record;
    return `${what} from grant ${source.permissionId}${record === undefined ? '' : ` (${record.level} on ${record.path || "/"})`}`;
  }
  return `${what} from role ${source.role}`;
}

function nearMissText(reason: NearMissReason): string {
  switch (reason.code) {
    case 'not_member': return `not a member of group ${reason.groupId}`;
    case 'missing_groups': return `not a member of groups ${reason.missingGroupIds.join(', ')}`;
    case 'other_user': return `granted to user ${reason.userId}`;
    case 'not_recursive': return 'not recursive';
    case 'other_partner': return `granted to Partner ${reason.partnerId}`;
    case 'partner_user': return "not a Partner grant: a Partner user holds its Partner's grants only";
    case 'invalid_grantee': return 'its grantee matches nobody';
  }
}
