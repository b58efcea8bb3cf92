import type { FoundBundle } from './bundle-lookup.js';

// What a share link's page shows before anything else (GET /api/public/bundles/<code>): what the
// link is and what its visitors may do. `can` is what the link offers; each act is still decided
// by the link's file session, which never gives more than the creator holds now.

export interface LinkFacts {
  code: string;
  description: string | null;
  permissions: string;
  expiresAt: number | null;
  passwordProtected: boolean;
  requireRegistration: boolean;
  unlocked: boolean;
  can: { list: boolean; download: boolean; preview: boolean; upload: boolean; delete: boolean };
  dontAllowFoldersInUploads: boolean;
  maxUploadBytes: number;
}

export function linkFacts(found: FoundBundle, unlocked: boolean, maxUploadBytes: number): LinkFacts {
  const { bundle } = found;
  const permissions = bundle.settings.permissions;
  const reads = permissions === 'read' || permissions === 'read_write' || permissions === 'full' || permissions === 'preview_only';
  return {
    code: bundle.code,
    description: bundle.settings.description,
    permissions,
    expiresAt: bundle.settings.expires_at,
    passwordProtected: bundle.passwordHash !== null,
    requireRegistration: bundle.settings.require_registration,
    unlocked,
    can: {
      list: reads,
      download: reads && permissions !== 'preview_only',
      preview: reads,
      upload: permissions === 'write' || permissions === 'read_write' || permissions === 'full',
      delete: permissions === 'full',
    },
    dontAllowFoldersInUploads: bundle.settings.dont_allow_folders_in_uploads,
    maxUploadBytes,
  };
}
