import { isIP } from 'node:net';

/**
 * The most entries one `allowed_ips` list may hold (site, user or group): enough for any real
 * office and VPN plan, and a bound on what every request checks.
 */
export const MAX_ADDRESS_LIST_ENTRIES = 100;

/** A list as read: its entries one a line, or the first thing wrong with it (worded after the field name). */
export type AddressListReading = { list: string } | { problem: string };

/**
 * Reads an `allowed_ips` list as sent: one IPv4 or IPv6 address or CIDR range a line (commas are
 * taken as line breaks too, as people paste them), blank lines dropped; empty is no list. The
 * site's, the users' and the groups' lists are read the same way; each feature words the refusal.
 */
export function readAddressList(raw: string | null): AddressListReading {
  const entries = (raw ?? '').split(/[\r\n,]+/).map((line) => line.trim()).filter((line) => line !== '');
  if (entries.length > MAX_ADDRESS_LIST_ENTRIES) return { problem: `has too many entries (maximum is ${MAX_ADDRESS_LIST_ENTRIES})` };
  const wrong = entries.find((entry) => !isAddressOrRange(entry));
  if (wrong !== undefined) return { problem: `"${wrong.slice(0, 64)}" is not an IP address or CIDR range` };
  return { list: entries.join('\n') };
}

function isAddressOrRange(entry: string): boolean {
  const [address, prefix, ...rest] = entry.split('/');
  if (address === undefined || rest.length > 0) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}
