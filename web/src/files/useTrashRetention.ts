import { useEffect, useState } from 'react';
import { getSitePolicies } from '../api/account';

/**
 * How many days a deletion stays in the trash, for the delete confirmation to say: one of the site
 * rules every user may read (GET /site/policies). Until the answer comes, or if it fails, it is
 * undefined, and the confirmation says only that the item goes to the trash.
 */
export function useTrashRetention(wanted: boolean): number | undefined {
  const [days, setDays] = useState<number | undefined>();
  const ask = wanted && days === undefined;
  useEffect(() => {
    if (!ask) return;
    let current = true;
    getSitePolicies().then((policies) => { if (current) setDays(policies.trash_retention_days); }, () => undefined);
    return () => { current = false; };
  }, [ask]);
  return days;
}
