import ipaddr from 'ipaddr.js';

// Which addresses an import may connect to. An automation fetches with the server's own network
// position, so without this rule anyone who may create one could make the server read its own
// loopback services, the internal network or a cloud metadata endpoint (169.254.169.254) and
// store the answer as a file. The ranges come from ipaddr.js, which follows IANA's registries of
// special-purpose addresses; anything it does not call plain unicast is refused.

/** ipaddr.js's range names, in words for a run's log. */
const RANGE_WORDS: Readonly<Record<string, string>> = {
  unspecified: 'an unspecified address',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT address',
  private: 'a private address',
  uniqueLocal: 'a private (unique local) address',
  reserved: 'a reserved address',
};

/**
 * Why an import may not connect to `address`, in words for a run's log, or null when it is a
 * public unicast address. An IPv4 address written as IPv6 (`::ffff:127.0.0.1`) is judged as the
 * IPv4 address it is. Of IPv6, only global unicast (2000::/3) is public: the rest of the space is
 * private, link-local, multicast, reserved or carries an IPv4 address in a way (NAT64, 6to4,
 * Teredo, IPv4-compatible) that could lead to a private one.
 */
export function addressRefusal(address: string): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    // process() turns an IPv4-mapped IPv6 address into its IPv4 address.
    parsed = ipaddr.process(address);
  } catch {
    return 'not an IP address';
  }
  const range = parsed.range();
  if (range !== 'unicast') return RANGE_WORDS[range] ?? `a special-purpose address (${range})`;
  if (parsed.kind() === 'ipv6' && !parsed.match(GLOBAL_UNICAST_V6)) return 'a reserved address';
  return null;
}

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** The one spelling of an address, so that `::1`, `0:0::1` and `::ffff:7f00:1` compare as they connect. */
export function normalisedAddress(address: string): string | null {
  try {
    return ipaddr.process(address).toNormalizedString();
  } catch {
    return null;
  }
}
