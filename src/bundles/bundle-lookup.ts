import { creatorOf } from '../access/index.js';
import type { Db } from '../db/database.js';
import { readSharingSettings, verifyPasswordOrDummy } from '../identity/index.js';
import { type Bundle, type BundlePath, findBundleByCode as findByCode, findBundlePaths } from '../repositories/bundles.js';

// A share link as its public page finds it (docs/sharing.md#visiting-a-link): by its code, with
// whether it works now. Its visitors' side (link-visits.ts, link-files.ts, link-zip.ts) calls
// these, and records what visitors do with insertBundleRegistration, insertBundleAction and
// insertBundleDownload.

/** Why a link does not work now; none when it does. */
export type BundleClosedReason = 'sharing_disabled' | 'not_started' | 'expired' | 'creator_deleted' | 'creator_disabled';

export interface FoundBundle {
  bundle: Bundle;
  paths: BundlePath[];
  /** Null when the link works now. */
  closed: BundleClosedReason | null;
  /** The site's words for a link that is missing or closed (`bundle_not_found_message`); empty for the page's own. */
  notFoundMessage: string;
}

/**
 * The link whose code is exactly `code`, and whether it works at `now`: sharing is on, access has
 * started and not expired, and its creator still exists and, while the site revokes the links of
 * disabled users (`revoke_bundle_access_on_disable_or_delete`, on by default), is not disabled.
 * The code is compared by the database's unique index, not by a constant-time comparison: the
 * lookup's time depends on the index, not on how many characters of a guess were right, and a
 * code is 128 random bits besides. Password guesses are limited in link-password.ts; a link's
 * uses (`max_uses`) are its visits, counted in link-visits.ts.
 */
export async function findBundleByCode(db: Db, code: string, now: number): Promise<FoundBundle | undefined> {
  const bundle = await findByCode(db, code);
  if (bundle === undefined) return undefined;
  const sharing = await readSharingSettings(db);
  return { bundle, paths: await findBundlePaths(db, bundle.id), closed: await closedReason(db, bundle, now, sharing), notFoundMessage: sharing.bundle_not_found_message };
}

async function closedReason(db: Db, bundle: Bundle, now: number, sharing: { sharing_enabled: boolean; revoke_bundle_access_on_disable_or_delete: boolean }): Promise<BundleClosedReason | null> {
  if (!sharing.sharing_enabled) return 'sharing_disabled';
  const { start_access_on_date: start, expires_at: end } = bundle.settings;
  if (start !== null && now < start) return 'not_started';
  if (end !== null && now >= end) return 'expired';
  const creator = await creatorOf(db, bundle);
  if (creator === undefined) return 'creator_deleted';
  if (creator.disabled && sharing.revoke_bundle_access_on_disable_or_delete) return 'creator_disabled';
  return null;
}

/** Whether `password` is the link's; a link without one takes none. Costs one argon2 verification either way. */
export async function bundlePasswordMatches(bundle: Bundle, password: string): Promise<boolean> {
  if (bundle.passwordHash === null) return true;
  return verifyPasswordOrDummy(bundle.passwordHash, password);
}
