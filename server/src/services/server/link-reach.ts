import net from 'node:net';

/**
 * Where the links the server hands out can be opened: only at home, from anywhere, or by
 * anyone on the owner's Tailscale network (at home or away; links on the tailnet name).
 */
export type LinkReach = 'home_network' | 'internet' | 'tailnet';

/** Names that only a home network resolves: mDNS, the names routers hand out, RFC 8375's home.arpa. */
const HOME_SUFFIXES = [
  '.local',
  '.lan',
  '.home',
  '.home.arpa',
  '.internal',
  '.localdomain',
  '.intranet',
  '.private',
  '.corp',
  '.localhost',
];

/**
 * Whether a link on `origin` opens away from home. Private, loopback, link-local and carrier
 * (CGNAT) addresses, single-label names and home-only suffixes are the home network; a public
 * address or a public DNS name (the owner set PUBLIC_URL to it) is the Internet. Nothing is
 * resolved or probed: the answer is what the origin says, so the share dialog can say it
 * before a link leaves the house.
 */
export function linkReach(origin: string): LinkReach {
  let host: string;
  try {
    host = new URL(origin).hostname
      .toLowerCase()
      .replace(/^\[|\]$/g, '')
      .replace(/\.$/, '');
  } catch {
    return 'home_network';
  }
  if (net.isIPv4(host)) return privateIPv4(host) ? 'home_network' : 'internet';
  if (net.isIPv6(host)) return privateIPv6(host) ? 'home_network' : 'internet';
  if (host === 'localhost' || !host.includes('.')) return 'home_network';
  return HOME_SUFFIXES.some((suffix) => host.endsWith(suffix)) ? 'home_network' : 'internet';
}

/**
 * Whether a client's address is on the home network, by the same ranges as linkReach: private,
 * loopback, link-local and carrier (CGNAT, Tailscale's too) addresses. The address must be the
 * one the server believes (the socket's, or what a trusted proxy says): a header is no proof.
 */
export function isHomeAddress(address: string | null | undefined): boolean {
  if (!address) return false;
  const bare = address.replace(/%.*$/, '').toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
  if (mapped) return privateIPv4(mapped[1]!);
  if (net.isIPv4(bare)) return privateIPv4(bare);
  return net.isIPv6(bare) && privateIPv6(bare);
}

function privateIPv4(address: string): boolean {
  const [a, b] = address.split('.').map(Number) as [number, number];
  return (
    a === 10 ||
    a === 127 ||
    a === 0 ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 169 && b === 254) ||
    // Carrier-grade NAT: an address the provider shares, which no one outside can dial.
    (a === 100 && b >= 64 && b <= 127)
  );
}

function privateIPv6(address: string): boolean {
  // An IPv4 address mapped into IPv6 (URL parsing writes it in hex: ::ffff:c0a8:2).
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(address);
  if (mapped) {
    const [high, low] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
    return privateIPv4(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`);
  }
  const first = parseInt(address.split(':')[0] || '0', 16);
  // ::1 and ::, fe80::/10 link-local, fc00::/7 unique local.
  return address === '::1' || address === '::' || (first & 0xffc0) === 0xfe80 || (first & 0xfe00) === 0xfc00;
}
