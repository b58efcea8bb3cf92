import type { Call } from '../../access/index.js';
import { cachedRead } from '../../db/read-cache.js';
import { listUsers, userGroupIds } from '../../directory/index.js';
import { idPageQuery, pageOf, type PageRequest } from '../pagination.js';
import { userBody } from './user-body.js';

/** A users page as sent: the JSON array of users, and the cursor when another page exists. */
export interface RenderedUsersPage {
  json: string;
  cursor: string | undefined;
}

/** Rendered pages kept, in characters of JSON: at most 16 Mi whatever the traffic. */
const MAX_KEPT_JSON = 16 * 1024 * 1024;

type UserFilter = Parameters<typeof listUsers>[1];

/**
 * A page of GET /users rendered as its response body, `serialize` being the route's own response
 * serializer. Like a folder listing (files/listing-response.ts), the body is a function of the
 * data and of who asks where, so it is cached until the data changes (db/read-cache.ts): a repeated
 * listing costs a version check and a lookup instead of the authority check, the reads behind it
 * and the serialisation. The key holds everything besides the data that the answer depends on:
 * the caller (its user, or a site-wide key, with the flags its visibility is decided from), the
 * request's Workspace, the filter and the page. Any write moves the version, so nothing is served
 * stale, and authority is decided again from current data after every change.
 */
export function renderedUsersPage(a: Call, filter: UserFilter, page: PageRequest<number>, serialize: (body: unknown) => string): Promise<RenderedUsersPage> {
  const { caller } = a;
  const user = caller.user;
  const who = user === null ? 'site-wide key' : [user.id, user.workspaceId, user.siteAdmin, user.workspaceAdmin].join(':');
  const key = JSON.stringify([who, caller.siteAdmin, a.requestWorkspaceId, filter.username ?? null, filter.workspaceId ?? null, filter.ids ?? null, page.after ?? null, page.limit]);
  return cachedRead(
    a.db,
    'users-page-json',
    key,
    async () => {
      const listed = pageOf('users', await listUsers(a, filter, idPageQuery(page)), page.limit, (u) => u.id);
      const groups = await userGroupIds(a, listed.rows.map((u) => u.id));
      return Object.freeze({ json: serialize(listed.rows.map((u) => userBody(u, groups.get(u.id)))), cursor: listed.cursor });
    },
    { weigh: (rendered) => rendered.json.length, maxWeight: MAX_KEPT_JSON },
  );
}
