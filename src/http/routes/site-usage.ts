import { Type } from 'typebox';
import { siteStorageUsage, type SiteUsage } from '../../files/index.js';
import { isoTime } from '../../lib/time.js';
import { callOf } from '../call.js';
import type { ApiInstance } from '../fastify-types.js';
import type { RouteDeps } from '../route-deps.js';
import { errorResponses } from '../schemas.js';

/** Files.com measures storage in GB; decimal ones, as storage is sold. */
const BYTES_PER_GB = 1_000_000_000;

/**
 * Files.com's UsageSnapshot (what its SDKs' Site.getUsage reads) as far as Atrium measures it, and
 * Atrium's exact counts besides. Transfer and billing figures are not offered: Atrium neither
 * meters transfers nor bills.
 */
const UsageBody = Type.Object({
  start_at: Type.String({ description: 'the moment measured (a measure now: the same as end_at)' }),
  end_at: Type.String({ description: 'the moment measured' }),
  current_storage: Type.Number({ description: 'GB (10^9 bytes) of files stored on the whole site' }),
  root_storage: Type.Number({ description: 'GB of files stored in Workspace 0 (outside the Custom Workspaces\' folders)' }),
  deleted_files_storage: Type.Number({ description: 'GB kept for undoing: deleted files in the trash and earlier versions of files (docs/files.md#trash-and-versions)' }),
  bytes_stored: Type.Integer({ description: 'Atrium: bytes of files stored on the whole site' }),
  files_count: Type.Integer({ description: 'Atrium: files stored on the whole site (folders not counted)' }),
  trash_bytes: Type.Integer({ description: 'Atrium: bytes of the files in the trash' }),
  trash_files_count: Type.Integer({ description: 'Atrium: files in the trash' }),
  version_bytes: Type.Integer({ description: 'Atrium: bytes of the earlier versions files keep (those of files in the trash included)' }),
  versions_count: Type.Integer({ description: 'Atrium: earlier versions kept' }),
  usage_by_workspace: Type.Array(Type.Object({
    workspace_id: Type.Integer(),
    workspace_name: Type.String(),
    bytes_stored: Type.Integer(),
    files_count: Type.Integer(),
    trash_bytes: Type.Integer(),
    trash_files_count: Type.Integer(),
    version_bytes: Type.Integer(),
    versions_count: Type.Integer(),
  }), { description: 'Atrium: every Workspace, Workspace 0 first, with the files stored in it, its trash and its files\' versions' }),
});

function usageBody(usage: SiteUsage) {
  const measuredAt = isoTime(usage.measuredAt);
  const root = usage.workspaces.find((w) => w.workspaceId === 0);
  return {
    start_at: measuredAt,
    end_at: measuredAt,
    current_storage: usage.bytes / BYTES_PER_GB,
    root_storage: (root?.bytes ?? 0) / BYTES_PER_GB,
    deleted_files_storage: (usage.trash.bytes + usage.versions.bytes) / BYTES_PER_GB,
    bytes_stored: usage.bytes,
    files_count: usage.files,
    ...keptCounts(usage),
    usage_by_workspace: usage.workspaces.map((w) => ({ workspace_id: w.workspaceId, workspace_name: w.workspaceName, bytes_stored: w.bytes, files_count: w.files, ...keptCounts(w) })),
  };
}

function keptCounts(usage: Pick<SiteUsage, 'trash' | 'versions'>) {
  return { trash_bytes: usage.trash.bytes, trash_files_count: usage.trash.files, version_bytes: usage.versions.bytes, versions_count: usage.versions.files };
}

/** GET /site/usage: what the site stores, in all and per Workspace, for Site Administrators. */
export function siteUsageRoutes(app: ApiInstance, deps: RouteDeps): void {
  app.get('/site/usage', {
    schema: {
      summary: 'Show the storage the site uses, in all and per Workspace (Site Administrators)',
      querystring: Type.Object({}),
      response: { 200: UsageBody, ...errorResponses },
    },
  }, async (request) => usageBody(await siteStorageUsage(callOf(request, deps))));
}
