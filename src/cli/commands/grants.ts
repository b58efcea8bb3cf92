import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { grantsBeyondTheirCreators, type AuditedGrant } from '../../grants/index.js';
import { isoTime } from '../../lib/time.js';
import { CliError } from '../failure.js';
import { withSiteDatabase } from '../site-database.js';
import { configOf } from '../settings-options.js';

const FINDING_TEXT: Record<AuditedGrant['finding'], string> = {
  'beyond-creator-authority': 'reaches beyond what its creator may grant',
  'creator-deleted': 'its creator no longer exists',
  'no-creation-record': 'History holds no record of its creation',
};

/**
 * `atrium grants audit`: the grants their own creator could not create today (a delegate's
 * authority must cover all a grant reaches, contract 5.3), for an administrator to review after an
 * upgrade that closed such grants off, or at any time. Exits 1 when one reaches beyond its creator.
 */
export function addGrantCommands(program: Command, io: CliIo): void {
  const grants = program.command('grants').description('folder permission grants');
  grants.command('audit')
    .description('list the grants their creator could not create today (found from History), and those whose creator cannot be known; exit 1 if any reaches beyond its creator')
    .option('--json', 'print the findings as JSON, one object per grant')
    .action(async (options: { json?: boolean }, command: Command) => {
      const found = await withSiteDatabase(configOf(command, io.env), io.stderr, (database) => grantsBeyondTheirCreators(database.db));
      if (options.json === true) io.stdout.write(`${JSON.stringify(found.map(findingJson), null, 2)}\n`);
      else io.stdout.write(findingsText(found));
      const beyond = found.filter((audited) => audited.finding === 'beyond-creator-authority').length;
      if (beyond > 0) throw new CliError(`${beyond} grant${beyond === 1 ? '' : 's'} reach beyond what their creator may grant: review them, and delete each that should not be (DELETE /permissions/<id>)`);
    });
}

function findingJson({ grant, creator, finding }: AuditedGrant): object {
  return {
    permission_id: grant.id,
    path: grant.path,
    workspace_id: grant.workspaceId,
    permission: grant.level,
    recursive: grant.recursive,
    grantee: grant.grantee,
    finding,
    created_by: creator === null ? null : {
      user_id: creator.userId, username: creator.username, api_key_id: creator.apiKeyId, interface: creator.interface,
      at: isoTime(creator.at), history_id: creator.historyId,
    },
  };
}

function findingsText(found: readonly AuditedGrant[]): string {
  if (found.length === 0) return 'Every grant is within what its creator may grant.\n';
  return found.map(({ grant, creator, finding }) => {
    const by = creator === null ? '' : `, created by ${creator.username ?? 'a site-wide key'} (user ${creator.userId ?? '-'}) at ${isoTime(creator.at)}, History record ${creator.historyId}`;
    return `permission ${grant.id}: ${grant.level}${grant.recursive ? ' recursive' : ''} on /${grant.path} (Workspace ${grant.workspaceId}): ${FINDING_TEXT[finding]}${by}\n`;
  }).join('');
}
