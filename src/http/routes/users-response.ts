import type { Call } from '../../access/index.js';
import { listUsers, type UserFilter, type UserSortField, userGroupIds, userLockouts, userPartnerNames, userSecondFactors, usersWithVisibleNotes, userSortValue } from '../../directory/index.js';
import type { SortedPageRequest } from '../../lib/sorted-page.js';
import { renderedBody, type RenderedBody } from '../rendered-body.js';
import { sortedPageOf } from '../sorted-cursor.js';
import { userBody } from './user-body.js';

/**
 * A page of GET /users rendered as its response body, `serialize` being the route's own response
 * serializer, kept until the data changes (rendered-body.ts). The key holds the filter, the order
 * and the page besides the caller and its Workspace. `byId`: the listing's own order, whose
 * cursors hold only the last id.
 */
export function renderedUsersPage(a: Call, filter: UserFilter, page: SortedPageRequest<UserSortField>, byId: boolean, serialize: (body: unknown) => string): Promise<RenderedBody> {
  const request = JSON.stringify([filter, page, byId]);
  return renderedBody(a, 'users-page-json', request, async () => {
    // One row more than the page, to learn whether another page follows.
    const rows = await listUsers(a, filter, { ...page, limit: page.limit + 1 });
    const listed = sortedPageOf('users', rows, page, byId, (u) => ({ value: userSortValue(u, page.sort.field), id: u.id }));
    const groups = await userGroupIds(a, listed.rows.map((u) => u.id));
    const withNotes = await usersWithVisibleNotes(a, listed.rows);
    const lockouts = await userLockouts(a, listed.rows);
    const partnerNames = await userPartnerNames(a, listed.rows);
    const secondFactors = await userSecondFactors(a, listed.rows);
    const bodies = listed.rows.map((u) => userBody(u, groups.get(u.id), withNotes.has(u.id), lockouts.get(u.id), partnerNames.get(u.id), secondFactors.get(u.id)));
    return { json: serialize(bodies), cursor: listed.cursor };
  });
}
