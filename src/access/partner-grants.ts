import { isStrictAncestor, partnerMayHold, PARTNER_LEVELS, type Level } from '../authz/index.js';
import { errors } from '../errors/catalogue.js';
import type { Partner } from '../repositories/partners.js';
import { toSitePath, type SitePath } from './request-paths.js';

// What a Partner may be granted (docs/partners.md): its users' access is exactly its grants, so
// the grants are what confines them. A Partner grant lies on the Partner's root folder or below it,
// never above or beside it, and gives no administration, no sharing and no History: "Partners
// cannot be granted admin, sharing, or history permissions". The engine holds the level rule too
// (a stored grant of another level matches nobody); this is where a request learns of it.

/** The site path key of a Partner's root folder (kept relative to its Workspace's root). */
export function partnerRootKey(partner: Pick<Partner, 'workspaceId' | 'rootFolder'>): string {
  return toSitePath(partner.workspaceId, partner.rootFolder).key;
}

/** Whether a site path key is the Partner's root folder or lies inside it. */
export function isInsidePartnerRoot(partner: Pick<Partner, 'workspaceId' | 'rootFolder'>, pathKey: string): boolean {
  const rootKey = partnerRootKey(partner);
  return pathKey === rootKey || isStrictAncestor(rootKey, pathKey);
}

/** A grant for `partner` on `site` at `level`, or a refusal naming the field in the way. */
export function assertPartnerGrantFits(partner: Partner, site: SitePath, level: Level): void {
  if (!partnerMayHold(level)) {
    throw errors.modelSaveError({ permission: [`${level} cannot be granted to a Partner: it may hold ${PARTNER_LEVELS.join(', ')}`] });
  }
  if (site.workspaceId !== partner.workspaceId || !isInsidePartnerRoot(partner, site.key)) {
    throw errors.modelSaveError({ path: [`must be the Partner's root folder (${partner.rootFolder}) or a folder inside it`] });
  }
}

/**
 * A new root folder for a Partner, refused while any of its grants would lie outside it: they
 * would open to its users what their root no longer holds. The grants are moved or deleted first.
 */
export function assertRootHoldsGrants(newRoot: SitePath, grants: readonly { pathKey: string; path: string }[], shown: (sitePath: string) => string): void {
  const outside = grants.filter((grant) => grant.pathKey !== newRoot.key && !isStrictAncestor(newRoot.key, grant.pathKey));
  if (outside.length === 0) return;
  const paths = outside.map((grant) => shown(grant.path)).join(', ');
  throw errors.modelSaveError({ root_folder: [`must hold the Partner's grants: delete or replace those on ${paths} first`] });
}
