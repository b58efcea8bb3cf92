import type { DavContext } from '../dav-request.js';
import { copyOrMove } from './copy-move.js';
import { deleteMethod } from './delete.js';
import { getOrHead } from './get-head.js';
import { lock } from './lock.js';
import { mkcol } from './mkcol.js';
import { propfind } from './propfind.js';
import { proppatch } from './proppatch.js';
import { put } from './put.js';
import { unlock } from './unlock.js';

/** A WebDAV method: it answers through ctx.reply, or throws a DavError or an AtriumError. */
export type DavMethod = (ctx: DavContext) => Promise<void>;

/**
 * The methods /dav/ answers besides OPTIONS (which needs no caller), by HTTP method. LOCK and
 * UNLOCK come from methods/lock.ts and methods/unlock.ts.
 */
export const DAV_METHODS: Readonly<Record<string, DavMethod>> = {
  GET: getOrHead,
  HEAD: getOrHead,
  PUT: put,
  DELETE: deleteMethod,
  PROPFIND: propfind,
  PROPPATCH: proppatch,
  MKCOL: mkcol,
  COPY: copyOrMove,
  MOVE: copyOrMove,
  LOCK: lock,
  UNLOCK: unlock,
};
