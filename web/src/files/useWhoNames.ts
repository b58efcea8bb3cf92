import { useEffect, useState } from 'react';
import { usernamesOf } from '../api/users';
import { useAuthority } from '../session/authority';
import { useSession } from '../session/session';

/**
 * Who did something, in words, for the user ids an answer names (`deleted_by_id`,
 * `created_by_id`): "you" for the signed-in person, the user name when the caller may list users
 * (administrators and Group Admins; others are not asked, as the server would refuse them), else
 * the id; null is a site-wide key or an automation without a user.
 */
export function useWhoNames(ids: readonly (number | null)[]): (id: number | null) => string {
  const { profile } = useSession();
  const authority = useAuthority();
  const mayListUsers = authority.administrator || authority.groupAdmin;
  const [names, setNames] = useState<Map<number, string>>(new Map());
  const own = profile?.userId;
  const wanted = [...new Set(ids.filter((id): id is number => id !== null && id !== own))].sort((a, b) => a - b).join(',');
  useEffect(() => {
    if (!mayListUsers || wanted === '') return;
    const controller = new AbortController();
    usernamesOf(wanted.split(',').map(Number), controller.signal).then(
      (found) => setNames((known) => new Map([...known, ...found])),
      () => undefined,
    );
    return () => controller.abort();
  }, [mayListUsers, wanted]);
  return (id) => {
    if (id === null) return 'a site key or automation';
    if (id === own) return 'you';
    return names.get(id) ?? `user #${id}`;
  };
}
