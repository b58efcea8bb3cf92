import { isIPv6 } from 'node:net';

/**
 * The key the per-client login limit counts under, from the client's address (Fastify's
 * `request.ip`: the socket's peer, or X-Forwarded-For when that peer is one of the
 * ATRIUM_TRUST_PROXY addresses, see docs/authentication.md). An IPv4 address
 * counts as itself, also when it arrives IPv4-mapped (`::ffff:10.0.0.1`). An IPv6 address counts
 * by its /64 network: one host usually holds a whole /64, and counting single addresses would
 * give it 2^64 fresh allowances.
 */
export function clientAddressKey(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped !== null) return mapped[1] as string;
  if (!isIPv6(ip)) return ip;
  return `${expandIPv6(ip).slice(0, 4).join(':')}::/64`;
}

/** The eight hextets of an IPv6 address, without a zone, lower case. */
function expandIPv6(ip: string): string[] {
  const address = ip.split('%', 1)[0] as string;
  const [head, tail] = address.includes('::') ? address.split('::', 2) as [string, string] : [address, undefined];
  const headParts = head === '' ? [] : head.split(':');
  const tailParts = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - headParts.length - tailParts.length;
  const parts = tail === undefined ? headParts : [...headParts, ...Array<string>(Math.max(missing, 0)).fill('0'), ...tailParts];
  return parts.map((part) => (part.includes('.') ? part : part.toLowerCase().replace(/^0+(?=.)/, '')));
}
