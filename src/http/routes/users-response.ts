import type { Call } from '../../access/index.js';
import { listUsers, userGroupIds } from '../../directory/index.js';
import { idPageQuery, pageOf, type PageRequest } from '../pagination.js';
import { renderedBody, type RenderedBody } from '../rendered-body.js';
import { userBody } from './user-body.js';

type UserFilter = Parameters<typeof listUsers>[1];

/**
 * A page of GET /users rendered as its response body, `serialize` being the route's own response
 * serializer, kept until the data changes (rendered-body.ts). The key holds the filter and the
 * page besides the caller and its Workspace.
 */
export function renderedUsersPage(a: Call, filter: UserFilter, page: PageRequest<number>, serialize: (body: unknown) => string): Promise<RenderedBody> {
  const request = JSON.stringify([filter.username ?? null, filter.workspaceId ?? null, filter.ids ?? null, page.after ?? null, page.limit]);
  return renderedBody(a, 'users-page-json', request, async () => {
    const listed = pageOf('users', await listUsers(a, filter, idPageQuery(page)), page.limit, (u) => u.id);
    const groups = await userGroupIds(a, listed.rows.map((u) => u.id));
    return { json: serialize(listed.rows.map((u) => userBody(u, groups.get(u.id)))), cursor: listed.cursor };
  });
}
