import type { Db } from '../../../db/database.js';
import { cachedRead } from '../../../db/read-cache.js';
import type { ChildPosition, FileSession, ListingPageRequest } from '../../../files/index.js';
import { entryBody } from './entry-body.js';

/** A listing page as sent: the JSON array of entries, and where the next page starts. */
export interface RenderedListing {
  json: string;
  next: ChildPosition | undefined;
}

/** Rendered pages kept, in characters of JSON: at most 32 MiB whatever the traffic. */
const MAX_KEPT_JSON = 16 * 1024 * 1024;

/**
 * A listing page rendered as its response body (`folderKey`: the key of the site path `path` names,
 * which the caller has already located). The body is a function of the data and of who
 * asks, so it is cached until the data changes (db/read-cache.ts): a client polling a folder, or a
 * team listing the same folder, costs a version check and a lookup, not a walk of the grants and
 * a serialisation. Any write anywhere moves the version, so nothing is ever served stale.
 */
export function renderedListing(db: Db, session: FileSession, path: string, folderKey: string, page: ListingPageRequest): Promise<RenderedListing> {
  const { sort, after } = page;
  const key = [session.decisionKey, folderKey, sort.field, sort.direction, after?.type ?? '', after?.value ?? '', after?.pathKey ?? '', page.limit].join('\u0000');
  return cachedRead(
    db,
    'folder-listing-json',
    key,
    async () => {
      const listed = await session.list(path, page);
      return Object.freeze({ json: JSON.stringify(listed.entries.map(entryBody)), next: listed.next });
    },
    { weigh: (rendered) => rendered.json.length, maxWeight: MAX_KEPT_JSON },
  );
}
