import net from 'node:net';
import forge from 'node-forge';
import type { CertificateNames } from './certificate-names.ts';

/**
 * What Hearth's certificate authority may vouch for, written into it as critical Name
 * Constraints when it is made: the names this server goes by and the home networks it is on,
 * nothing else. A phone that trusts the authority trusts it for these alone, so its key, had it
 * been copied off the PC (a stolen backup), could not stand in for the router's page, a printer,
 * another PC of the house, a bank or a mail server.
 */
export interface AuthorityScope {
  /** DNS names; each also covers the names under it (RFC 5280 4.2.1.10). */
  dns: string[];
  /** Address ranges, [network, prefix length]. */
  ips: [string, number][];
}

/**
 * The outer bound, which no authority ever goes beyond: names under these suffixes and
 * addresses in these ranges are home-network ones. A public name (photos.example.com) or
 * address is never in a certificate of Hearth's own: it would be a name of the wider internet.
 */
const HOME_DNS_SUFFIXES = ['local', 'localhost', 'home.arpa', 'lan', 'internal', 'home', 'localdomain'];
const HOME_IP_RANGES: [string, number][] = [
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['100.64.0.0', 10],
  ['fc00::', 7],
  ['fe80::', 10],
  ['::1', 128],
];

/**
 * An address of this PC stands for its network: the /24 (IPv4) or /64 (IPv6) around it, so the
 * router handing the PC another address on the same network (DHCP) stays covered. Loopback is
 * the one address.
 */
const NETWORK_BITS = { 4: 24, 6: 64 } as const;

/**
 * Every certificate Hearth's authority signs names its subject under this directory name, and the
 * authority permits no other: it cannot vouch for a person's or a company's directory name.
 */
const LEAF_SUBJECT_PREFIX = [{ name: 'organizationName', type: forge.pki.oids.organizationName!, value: 'Hearth' }];

/**
 * A name no one can hold (RFC 6761 reserves `.invalid`): the only e-mail domain and URI host the
 * authority permits, so it can vouch for no real e-mail address (S/MIME) or URI. A permitted
 * subtree of a name type shuts out every name of that type outside it (RFC 5280 4.2.1.10), which
 * every verifier agrees on, unlike an empty excluded one.
 */
const NO_REAL_HOST = 'invalid';

/** Whether a name or address belongs to a home network at all (the outer bound). */
export function isHomeName(name: string): boolean {
  if (net.isIP(name)) return HOME_IP_RANGES.some(([base, bits]) => inRange(name, base, bits));
  const lower = name.toLowerCase();
  return HOME_DNS_SUFFIXES.some((suffix) => lower === suffix || lower.endsWith(`.${suffix}`));
}

/** The scope for an authority made now: these names, and the networks of these addresses. */
export function scopeFor(names: CertificateNames): AuthorityScope {
  const dns = unique(names.dns.map((n) => n.toLowerCase()).filter(isHomeName));
  const ips: [string, number][] = [];
  for (const address of names.ips.filter(isHomeName)) {
    const version = net.isIP(address) as 4 | 6;
    const bits = isLoopback(address) ? (version === 4 ? 32 : 128) : NETWORK_BITS[version];
    const network = networkOf(address, bits);
    if (!ips.some(([base, b]) => b === bits && sameBytes(addressBytes(base), addressBytes(network)))) ips.push([network, bits]);
  }
  return { dns, ips };
}

/** Whether the scope lets the authority vouch for this name or address. */
export function scopeCovers(scope: AuthorityScope, name: string): boolean {
  const lower = name.toLowerCase();
  if (net.isIP(lower)) return scope.ips.some(([base, bits]) => inRange(lower, base, bits));
  return scope.dns.some((allowed) => lower === allowed || lower.endsWith(`.${allowed}`));
}

/** The Name Constraints extension's value for a scope (DER, as forge builds it). */
export function nameConstraintsFor(scope: AuthorityScope): forge.asn1.Asn1 {
  const { asn1 } = forge;
  const subtree = (general: forge.asn1.Asn1) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [general]);
  const general = (tag: number, value: string) => subtree(asn1.create(asn1.Class.CONTEXT_SPECIFIC, tag, false, value));
  const permitted = [
    ...scope.dns.map((name) => general(2, name)),
    ...scope.ips.map(([base, bits]) => general(7, addressAndMask(base, bits).toString('binary'))),
    general(1, NO_REAL_HOST),
    general(6, NO_REAL_HOST),
    subtree(asn1.create(asn1.Class.CONTEXT_SPECIFIC, 4, true, [forge.pki.distinguishedNameToAsn1({ attributes: subjectAttributes() })])),
  ];
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, permitted)]);
}

/**
 * The scope an existing authority's certificate permits, read back from its Name Constraints;
 * null when it has none it could be read from (then it is not one Hearth made).
 */
export function scopeOf(certificate: forge.pki.Certificate): AuthorityScope | null {
  const extension = certificate.extensions.find((e: { id?: string }) => e.id === '2.5.29.30') as { value?: string } | undefined;
  if (!extension?.value) return null;
  try {
    const scope: AuthorityScope = { dns: [], ips: [] };
    const constraints = forge.asn1.fromDer(extension.value);
    const permitted = (constraints.value as forge.asn1.Asn1[]).find((part) => part.type === 0);
    for (const subtree of (permitted?.value ?? []) as forge.asn1.Asn1[]) {
      const name = (subtree.value as forge.asn1.Asn1[])[0]!;
      if (name.type === 2) scope.dns.push(String(name.value).toLowerCase());
      if (name.type === 7) scope.ips.push(rangeOf(Buffer.from(String(name.value), 'binary')));
    }
    return scope;
  } catch {
    return null;
  }
}

/** The scope as people read it: "hearth.local", "192.168.1.0/24". */
export function scopeWords(scope: AuthorityScope): { names: string[]; addresses: string[] } {
  return { names: [...scope.dns], addresses: scope.ips.map(([base, bits]) => `${base}/${bits}`) };
}

/** A certificate's subject under the one directory name the authority permits. */
export function leafSubject(commonName: string): forge.pki.CertificateField[] {
  return [...subjectAttributes(), { name: 'commonName', value: commonName }];
}

function subjectAttributes(): forge.pki.CertificateField[] {
  return LEAF_SUBJECT_PREFIX.map((attribute) => ({ ...attribute }));
}

function isLoopback(address: string): boolean {
  return inRange(address, '127.0.0.0', 8) || inRange(address, '::1', 128);
}

function unique<T>(list: T[]): T[] {
  return [...new Set(list)];
}

function networkOf(address: string, bits: number): string {
  const bytes = addressBytes(address);
  const mask = addressAndMask(address, bits).subarray(bytes.length);
  const network = Buffer.from(bytes.map((byte, i) => byte & mask[i]!));
  return textOf(network);
}

function rangeOf(bytes: Buffer): [string, number] {
  const half = bytes.length / 2;
  const bits = [...bytes.subarray(half)].reduce((sum, byte) => sum + byte.toString(2).replaceAll('0', '').length, 0);
  return [textOf(bytes.subarray(0, half)), bits];
}

function textOf(bytes: Buffer): string {
  if (bytes.length === 4) return [...bytes].join('.');
  const groups = Array.from({ length: 8 }, (_, i) => bytes.readUInt16BE(i * 2).toString(16));
  return new URL(`http://[${groups.join(':')}]/`).hostname.slice(1, -1);
}

function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && a.equals(b);
}

function addressAndMask(base: string, bits: number): Buffer {
  const address = addressBytes(base);
  const mask = Buffer.alloc(address.length);
  for (let i = 0; i < mask.length; i++) mask[i] = bits >= (i + 1) * 8 ? 0xff : bits <= i * 8 ? 0 : (0xff << (8 - (bits - i * 8))) & 0xff;
  return Buffer.concat([address, mask]);
}

function inRange(address: string, base: string, bits: number): boolean {
  const a = addressBytes(address);
  const b = addressBytes(base);
  if (a.length !== b.length) return false;
  const mask = addressAndMask(base, bits).subarray(b.length);
  return a.every((byte, i) => (byte & mask[i]!) === (b[i]! & mask[i]!));
}

function addressBytes(address: string): Buffer {
  if (net.isIPv4(address)) return Buffer.from(address.split('.').map(Number));
  // Expand "::" and any embedded IPv4 tail into eight 16-bit groups.
  let text = address.toLowerCase();
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4[1]!.split('.').map(Number) as [number, number, number, number];
    text = text.slice(0, -v4[1]!.length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const groups =
    tail === undefined ? headGroups : [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups];
  const bytes = Buffer.alloc(16);
  groups.forEach((group, i) => bytes.writeUInt16BE(parseInt(group || '0', 16), i * 2));
  return bytes;
}
