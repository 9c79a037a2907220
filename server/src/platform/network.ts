import net from 'node:net';
import os from 'node:os';

export interface LanAddress {
  address: string;
  family: 'IPv4' | 'IPv6';
  /** The adapter's name as the OS reports it (`eth0`, `wlp2s0`, `Wi-Fi`). */
  interface: string;
}

type Interfaces = NodeJS.Dict<os.NetworkInterfaceInfo[]>;

/**
 * Adapters a phone on the home network cannot reach the machine through: container and VM
 * bridges, VPN tunnels, and the like (Linux, macOS and Windows names).
 */
const VIRTUAL_ADAPTER =
  /^(docker|veth|br-|virbr|vnet|vboxnet|vmnet|tun|tap|wg|zt|tailscale|utun|ipsec|ppp|cni|flannel|cali|kube|cilium|podman|lxc|lxdbr|incusbr|dummy|awdl|llw|anpi|gif|stf)|virtual|vmware|vethernet|hyper-v|loopback|pseudo/i;

/**
 * The machine's addresses on its LAN, the ones to type on a phone: IPv4 first, then IPv6,
 * without loopback, link-local addresses (169.254/16, fe80::/10) or virtual adapters. Read
 * afresh on each call, since DHCP may move the machine to another address.
 */
export function listLanAddresses(interfaces: Interfaces = os.networkInterfaces()): LanAddress[] {
  const found: LanAddress[] = [];
  for (const [name, infos] of Object.entries(interfaces)) {
    if (!infos || VIRTUAL_ADAPTER.test(name)) continue;
    for (const info of infos) {
      const family = familyOf(info);
      if (info.internal || family === null || isLinkLocal(info.address, family)) continue;
      found.push({ address: info.address, family, interface: name });
    }
  }
  return [...found.filter((a) => a.family === 'IPv4'), ...found.filter((a) => a.family === 'IPv6')];
}

/** Every address of every adapter, loopback and virtual ones included, in canonical form. */
export function listOwnAddresses(interfaces: Interfaces = os.networkInterfaces()): string[] {
  return Object.values(interfaces)
    .flatMap((infos) => infos ?? [])
    .map((info) => canonicalAddress(info.address))
    .filter((address): address is string => address !== null);
}

/**
 * The machine's own addresses, read at most once a second and kept at most `maxAgeMs`: an
 * address the machine just received from DHCP is found by reading again on a miss.
 */
export class OwnAddresses {
  private known = new Set<string>();
  private readAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly read: () => string[] = () => listOwnAddresses(),
    private readonly now: () => number = Date.now,
    private readonly maxAgeMs = 30_000,
  ) {}

  has(address: string): boolean {
    const canonical = canonicalAddress(address);
    if (canonical === null) return false;
    const age = this.now() - this.readAt;
    if (age > this.maxAgeMs || (!this.known.has(canonical) && age > 1_000)) this.refresh();
    return this.known.has(canonical);
  }

  private refresh(): void {
    this.known = new Set(this.read());
    this.readAt = this.now();
  }
}

/** An IP address in one spelling (IPv6 lower case and compressed, no zone), or null if not one. */
export function canonicalAddress(address: string): string | null {
  const bare = address.replace(/%.*$/, '');
  const version = net.isIP(bare);
  if (version === 4) return bare;
  if (version === 6) return new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  return null;
}

function familyOf(info: os.NetworkInterfaceInfo): 'IPv4' | 'IPv6' | null {
  // Node 18.0-18.3 reported the family as a number.
  const family = info.family as string | number;
  if (family === 'IPv4' || family === 4) return 'IPv4';
  if (family === 'IPv6' || family === 6) return 'IPv6';
  return null;
}

function isLinkLocal(address: string, family: 'IPv4' | 'IPv6'): boolean {
  if (family === 'IPv4') return address.startsWith('169.254.');
  return /^fe[89ab]/i.test(address);
}
