import type { Call } from '../access/index.js';
import { listUsers, type User } from '../directory/index.js';
import { errors } from '../errors/catalogue.js';

/** The user called `username` (any Workspace, as a Site Administrator sees the site), or `user-not-found`. */
export async function findUserByName(call: Call, username: string): Promise<User> {
  const [user] = await listUsers({ ...call, requestWorkspaceId: 0 }, { username }, { afterId: 0, limit: 1 });
  if (user === undefined) throw errors.userNotFound();
  return user;
}
