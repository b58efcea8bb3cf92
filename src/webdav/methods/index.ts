import type { DavContext } from '../dav-request.js';

/** A WebDAV method: it answers through ctx.reply, or throws a DavError or an AtriumError. */
export type DavMethod = (ctx: DavContext) => Promise<void>;

/**
 * The methods /dav/ answers besides OPTIONS (which needs no caller), by HTTP method. LOCK and
 * UNLOCK come from methods/lock.ts and methods/unlock.ts.
 */
export const DAV_METHODS: Readonly<Record<string, DavMethod>> = {
};
