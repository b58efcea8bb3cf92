// WebDAV locks (RFC 4918 class 2): what the write methods ask before changing anything, and what
// PROPFIND shows. Stand-ins until the lock store lands: nothing is locked, so every write may go.
import type { DavContext } from '../dav-request.js';

export interface WriteTarget {
  /** Request paths the method changes (a MOVE: its source and destination). */
  paths: readonly string[];
  /** The change reaches everything below the paths too (DELETE, MOVE, COPY Depth infinity of a folder). */
  recursive: boolean;
}

/**
 * Throws DavError(423, ..., 'lock-token-submitted') when a path is locked by a lock whose token
 * the If header does not submit, or DavError(412) when the If header's conditions fail.
 */
export async function assertWritable(_ctx: DavContext, _target: WriteTarget): Promise<void> {
  // No locks yet.
}

/** The inner XML of a path's DAV:lockdiscovery property ('' when it holds no lock). */
export async function lockDiscovery(_ctx: DavContext, _path: string): Promise<string> {
  return '';
}

/** Removes the locks on a path and below it, after it was deleted or moved away (locks go with the resource). */
export async function releaseLocksUnder(_ctx: DavContext, _path: string): Promise<void> {
  // No locks yet.
}
