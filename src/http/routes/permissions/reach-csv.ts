import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { Call, ExportedPath } from '../../../grants/index.js';
import { grantPathInRequest } from '../../../grants/index.js';
import { csvLine } from '../../../lib/csv.js';
import { reachNames, reachRowJson, type ReachRowJson } from './reach-body.js';

// The effective-access export as CSV (lib/csv.ts: RFC 4180, defused against formula injection;
// docs/permissions.md says so to auditors).

export const EXPORT_COLUMNS = ['path', 'user_id', 'username', 'workspace_id', 'permission', 'capabilities', 'role', 'permission_ids', 'because'] as const;

/** Why, in words: each reason of the row, separated by "; " (permission_ids has the ids alone). */
function becauseText(row: ReachRowJson): string {
  return row.because.map((cause) => {
    const role = cause.role === null ? '' : ` (${cause.role})`;
    switch (cause.source) {
      case 'site_admin':
        return 'Site Administrator';
      case 'workspace_admin_flag':
        return `Workspace Administrator of Workspace ${cause.workspace_id} by flag`;
      case 'hidden_grant':
        return `a grant you may not list${role}`;
      case 'grant': {
        const how = cause.applies === 'direct' ? 'direct'
          : cause.applies === 'group' ? `group ${cause.group_id} "${cause.group_name ?? ''}"`
            : cause.applies === 'partner' ? `Partner ${cause.partner_id} "${cause.partner_name ?? ''}"`
            : `all of groups ${cause.group_ids.map((id, i) => `${id} "${cause.group_names[i] ?? ''}"`).join(', ')}`;
        return `permission ${cause.permission_id} on "${cause.path}": ${cause.permission}, ${cause.recursive === true ? 'recursive' : 'this folder only'}, ${how}${role}`;
      }
    }
  }).join('; ');
}

/** The export's bytes: the header row, then a line per (path, user), read lazily from `paths`. */
export function exportCsvStream(call: Call, paths: AsyncGenerator<ExportedPath>): Readable {
  async function* lines(): AsyncGenerator<string> {
    yield csvLine(EXPORT_COLUMNS);
    for await (const { site, rows } of paths) {
      const names = await reachNames(call, rows);
      const path = grantPathInRequest(call, site.path);
      for (const row of rows) {
        const json = reachRowJson(call, row, names);
        yield csvLine([
          path,
          json.user_id,
          json.username,
          json.workspace_id,
          json.permission,
          json.capabilities.join(' '),
          json.role ?? '',
          json.because.flatMap((cause) => (cause.permission_id === null ? [] : [cause.permission_id])).join(' '),
          becauseText(json),
        ]);
      }
    }
  }
  return Readable.from(lines());
}

/** Sends the export as a CSV attachment, streamed with back-pressure. */
export function sendExportCsv(reply: FastifyReply, call: Call, paths: AsyncGenerator<ExportedPath>): FastifyReply {
  return reply
    .header('Content-Type', 'text/csv; charset=utf-8; header=present')
    .header('Content-Disposition', `attachment; filename="effective-access-workspace-${call.requestWorkspaceId}.csv"`)
    .header('X-Content-Type-Options', 'nosniff')
    .send(exportCsvStream(call, paths));
}
