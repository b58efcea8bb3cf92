import { bundleListScope, type Call, findVisibleBundle } from '../access/index.js';
import type { IdPageRequest } from '../lib/sorted-page.js';
import {
  type BundleAction, type BundleDownload, type BundleRecordFilter, type BundleRecordScope, type BundleRegistration, listBundleActions as listActionsIn,
  listBundleDownloads as listDownloadsIn, listBundleRegistrations as listRegistrationsIn,
} from '../repositories/bundle-activity.js';

// What visitors did through share links, as their creators and administrators read it
// (docs/sharing.md#what-a-link-records): registrations, actions and downloads, of one link or of
// every link the caller sees. The public page writes them.

export interface BundleRecordsOf {
  /** One link's records. */
  bundleId?: number;
  /** The records of this creator's links only (0: the caller's own). */
  userId?: number;
}

/**
 * The links whose records a listing covers: the one named (when the caller sees it), else every
 * link the caller sees, of one creator when `userId` asks; undefined when that creator's links
 * are none the caller sees.
 */
async function recordScope(a: Call, of: BundleRecordsOf): Promise<BundleRecordScope | undefined> {
  if (of.bundleId !== undefined) return { bundleId: (await findVisibleBundle(a.db, a.caller, a.requestWorkspaceId, of.bundleId)).id };
  const seen = await bundleListScope(a.db, a.caller, a.requestWorkspaceId);
  const asked = of.userId === 0 ? (a.caller.user?.id ?? -1) : of.userId;
  if (asked === undefined) return seen;
  if (seen.creatorId !== undefined && seen.creatorId !== asked) return undefined;
  return { scope: seen.scope, creatorId: asked };
}

export async function listBundleRegistrations(a: Call, of: BundleRecordsOf, page: IdPageRequest): Promise<BundleRegistration[]> {
  const scope = await recordScope(a, of);
  return scope === undefined ? [] : listRegistrationsIn(a.db, scope, page);
}

export async function listBundleActions(a: Call, of: BundleRecordsOf, filter: BundleRecordFilter, page: IdPageRequest): Promise<BundleAction[]> {
  const scope = await recordScope(a, of);
  return scope === undefined ? [] : listActionsIn(a.db, scope, filter, page);
}

export async function listBundleDownloads(a: Call, of: BundleRecordsOf, filter: BundleRecordFilter, page: IdPageRequest): Promise<BundleDownload[]> {
  const scope = await recordScope(a, of);
  return scope === undefined ? [] : listDownloadsIn(a.db, scope, filter, page);
}
