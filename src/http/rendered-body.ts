import { authorityKeyOf, type Call } from '../access/index.js';
import { cachedRead } from '../db/read-cache.js';

/** A response as sent: its JSON body, and the cursor of the next page when there is one. */
export interface RenderedBody {
  json: string;
  cursor?: string | undefined;
}

/** Rendered bodies kept, per kind, in characters of JSON: at most 32 MiB whatever the traffic. */
const MAX_KEPT_JSON = 16 * 1024 * 1024;

/**
 * A response rendered once and sent again while the data has not changed (db/read-cache.ts), as
 * the folder listing does (routes/files/listing-response.ts): a repeated listing of users or
 * grants, or a repeated explanation, costs a version check and a lookup instead of the authority
 * checks, the reads behind them and the serialisation. The body is a function of the data, of who
 * asks and where, and of the request: the key holds the caller (access's authorityKeyOf: its user
 * with the flags its authority is decided from, or the site-wide key, and its confinement), the
 * request's Workspace, and `request`, everything the route read from the request. The caller's
 * flags, groups and grants are data, so any change to them moves the version and the next request
 * renders anew. An error is thrown, never kept.
 */
export function renderedBody(call: Call, kind: string, request: string, render: () => Promise<RenderedBody>): Promise<RenderedBody> {
  const key = [authorityKeyOf(call.caller), call.requestWorkspaceId, request].join('\u0000');
  return cachedRead(call.db, kind, key, async () => Object.freeze(await render()), { weigh: (body) => body.json.length, maxWeight: MAX_KEPT_JSON });
}
