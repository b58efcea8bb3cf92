import { bigFolder } from '../seed/grant-plan.js';
import type { SeededSite } from '../seed/seed-site.js';
import type { AnyRequest } from './http-loop.js';

/** A request and what its answer must be for its figures to count. */
export interface DavScenario {
  name: string;
  request: AnyRequest;
  check(status: number, text: string): string | undefined;
}

/** Basic authentication with an API key as the user name, as WebDAV clients send it (docs/webdav.md). */
export const basicWithKey = (key: string) => `Basic ${Buffer.from(`${key}:x`).toString('base64')}`;

/** What rclone asks of every entry: the live properties a sync tool lists a folder with. */
const PROPFIND_BODY = '<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:"><d:prop>'
  + '<d:displayname/><d:resourcetype/><d:getcontentlength/><d:getlastmodified/><d:getetag/><d:getcontenttype/>'
  + '</d:prop></d:propfind>';

const answered = (status: number, text: string) => `answered ${status} ${text.slice(0, 200)}`;

/** The member lists the whole large folder in one REST request (per_page up to 10,000). */
export function restListing(site: SeededSite, size: number): DavScenario {
  return {
    name: `REST GET /folders/<${size.toLocaleString('en')}-entry folder>?per_page=${size}`,
    request: { method: 'GET', path: `/api/rest/v1/folders/${bigFolder(size)}?per_page=${size}`, headers: { 'X-ServiceAPI-Key': site.member.key } },
    check(status, text) {
      if (status !== 200) return answered(status, text);
      const listed = (JSON.parse(text) as unknown[]).length;
      return listed === size ? undefined : `listed ${listed} entries`;
    },
  };
}

/** The same member lists the same folder with PROPFIND Depth 1 (the folder and its entries). */
export function propfindListing(site: SeededSite, size: number): DavScenario {
  return {
    name: `WebDAV PROPFIND Depth 1 <${size.toLocaleString('en')}-entry folder>`,
    request: {
      method: 'PROPFIND',
      path: `/dav/${bigFolder(size)}/`,
      headers: { authorization: basicWithKey(site.member.key), depth: '1', 'content-type': 'application/xml; charset=utf-8' },
      body: PROPFIND_BODY,
    },
    check(status, text) {
      if (status !== 207) return answered(status, text);
      const responses = text.match(/<\/([A-Za-z][\w.-]*:)?response>/g)?.length ?? 0;
      return responses === size + 1 ? undefined : `answered ${responses} responses for ${size} entries and the folder`;
    },
  };
}
