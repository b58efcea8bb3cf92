import type { Db } from '../../../db/database.js';
import { cachedRead } from '../../../db/read-cache.js';
import { EVERY_ENTRY, listingMatchKey, type ChildPosition, type FileEntry, type FileSession, type ListingPageRequest, type SubtreePosition, type SubtreeSearchRequest } from '../../../files/index.js';
import { entryBody } from './entry-body.js';
import type { ListingRendering } from './listing-options.js';

/** A listing page as sent: the JSON array of entries, and where the next page starts. */
export interface RenderedListing<P> {
  json: string;
  next: P | undefined;
}

/** Rendered pages kept, in characters of JSON: at most 32 MiB whatever the traffic. */
const MAX_KEPT_JSON = 16 * 1024 * 1024;

/**
 * An entry of a listing: with_previews and with_priority_color ask for fields Atrium has no
 * values for (it makes no previews and keeps no colors), so they are there, and null, which is
 * the true answer, rather than missing as if the request had not been read.
 */
function listingEntryBody(entry: FileEntry, rendering: ListingRendering) {
  return {
    ...entryBody(entry),
    ...(rendering.withPreviews ? { preview_id: null, preview: null } : {}),
    ...(rendering.withPriorityColor ? { priority_color: null } : {}),
  };
}

function positionKey(position: ChildPosition | undefined): (string | number)[] {
  return [position?.type ?? '', position?.value ?? '', position?.pathKey ?? ''];
}

/**
 * A page rendered as its response body, under a key of everything it depends on besides the data.
 * The body is a function of the data and of who asks, so it is cached until the data changes
 * (db/read-cache.ts): a client polling a folder, or a team listing the same folder, costs a version
 * check and a lookup, not a walk of the grants and a serialisation. Any write anywhere moves the
 * version, so nothing is ever served stale. A lock running out changes no data, so the locks on
 * and around the folder (read for every page, one query pair) are part of the key.
 */
function renderedPage<P>(
  db: Db,
  key: (string | number)[],
  rendering: ListingRendering,
  load: () => Promise<{ entries: FileEntry[]; next: P | undefined }>,
): Promise<RenderedListing<P>> {
  return cachedRead(
    db,
    'folder-listing-json',
    [...key, rendering.withPreviews ? 1 : 0, rendering.withPriorityColor ? 1 : 0].join('\u0000'),
    async () => {
      const listed = await load();
      return Object.freeze({ json: JSON.stringify(listed.entries.map((entry) => listingEntryBody(entry, rendering))), next: listed.next });
    },
    { weigh: (rendered) => rendered.json.length, maxWeight: MAX_KEPT_JSON },
  );
}

/**
 * A folder's listing page (`folderKey`: the key of the site path `path` names, which the caller
 * has already located), with its match if it has one.
 */
export async function renderedListing(
  db: Db, session: FileSession, path: string, folderKey: string, page: ListingPageRequest, rendering: ListingRendering,
): Promise<RenderedListing<ChildPosition>> {
  const { sort, after } = page;
  const locks = await session.locksAround(path);
  const key = [session.decisionKey, 'folder', folderKey, listingMatchKey(page.match ?? EVERY_ENTRY), sort.field, sort.direction, ...positionKey(after), page.limit, locks.stamp];
  return renderedPage(db, key, rendering, () => session.list(path, page, locks));
}

/** A page of a search_all search below the folder. */
export async function renderedSearch(
  db: Db, session: FileSession, path: string, folderKey: string, request: SubtreeSearchRequest, rendering: ListingRendering,
): Promise<RenderedListing<SubtreePosition>> {
  const at = request.after;
  const position = at === undefined ? ['', '', ''] : [at.parentKey, at.type, at.pathKey];
  const locks = await session.locksAround(path);
  const key = [session.decisionKey, 'subtree', folderKey, listingMatchKey(request.match), ...position, request.limit, locks.stamp];
  return renderedPage(db, key, rendering, () => session.search(path, request, locks));
}
