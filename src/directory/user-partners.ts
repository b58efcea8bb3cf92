import type { Call } from '../access/index.js';
import { partnerNamesByIds } from '../repositories/partners.js';
import type { User } from '../repositories/users.js';

/**
 * The name of each Partner user's Partner (`partner_name`), by user id. Whoever may see the user
 * may see the name of its Partner: the user's own field, like its Workspace id.
 */
export async function userPartnerNames(a: Call, users: readonly User[]): Promise<Map<number, string>> {
  const names = await partnerNamesByIds(a.db, users.flatMap((user) => (user.partnerId === null ? [] : [user.partnerId])));
  return new Map(users.flatMap((user) => {
    const name = user.partnerId === null ? undefined : names.get(user.partnerId);
    return name === undefined ? [] : [[user.id, name] as const];
  }));
}
