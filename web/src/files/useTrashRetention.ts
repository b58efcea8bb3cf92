import { useEffect, useState } from 'react';
import { readSite } from '../api/site';
import { useAuthority } from '../session/authority';

/**
 * How many days a deletion stays in the trash, for the delete confirmation to say. The site's
 * settings are a Site Administrator's to read: for anyone else (and until the answer comes) it is
 * undefined, and the confirmation says only that the item goes to the trash.
 */
export function useTrashRetention(wanted: boolean): number | undefined {
  const { siteAdmin } = useAuthority();
  const [days, setDays] = useState<number | undefined>();
  const ask = wanted && siteAdmin && days === undefined;
  useEffect(() => {
    if (!ask) return;
    let current = true;
    readSite().then((site) => { if (current) setDays(site.trash_retention_days); }, () => undefined);
    return () => { current = false; };
  }, [ask]);
  return days;
}
