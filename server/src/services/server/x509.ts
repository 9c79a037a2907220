import crypto from 'node:crypto';
import net from 'node:net';
import forge from 'node-forge';

/** A certificate and its private key, PEM-encoded. */
export interface KeyAndCertificate {
  keyPem: string;
  certPem: string;
}

/** What a server certificate is for: the names and addresses a phone types. */
export interface CertificateNames {
  dns: string[];
  ips: string[];
}

/**
 * The home network's names and addresses, the only ones Hearth's authority may ever vouch for
 * (a critical Name Constraints extension). A phone that trusts it trusts it for these alone: had
 * the authority's key been copied off the PC (a stolen backup), it still could not stand in for
 * a bank or a mail server on that phone.
 */
export const PERMITTED_DNS_SUFFIXES = ['local', 'localhost', 'home.arpa', 'lan', 'internal', 'home', 'localdomain'];
export const PERMITTED_IP_RANGES: [string, number][] = [
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

const AUTHORITY_YEARS = 20;

/** A new certificate authority, its key RSA 3072 (what every phone since Android 4 and iOS 9 accepts). */
export async function createAuthority(commonName: string, now: Date): Promise<KeyAndCertificate> {
  const keys = await generateRsa(3072);
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = serialNumber();
  cert.validity.notBefore = new Date(now.getTime() - 60 * 60_000);
  cert.validity.notAfter = new Date(now.getTime() + AUTHORITY_YEARS * 365 * 24 * 60 * 60_000);
  const subject = [
    { name: 'commonName', value: commonName },
    { name: 'organizationName', value: 'Hearth' },
  ];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    { name: 'subjectKeyIdentifier' },
    { id: '2.5.29.30', name: 'nameConstraints', critical: true, value: nameConstraints() },
  ]);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  return { keyPem: forge.pki.privateKeyToPem(keys.privateKey), certPem: forge.pki.certificateToPem(cert) };
}

/**
 * A server certificate signed by the authority for `names`. 397 days at most, as browsers and
 * Apple ask of every TLS certificate; it is renewed well before.
 */
export async function issueServerCertificate(
  authority: KeyAndCertificate,
  names: CertificateNames,
  now: Date,
  validityDays: number,
): Promise<KeyAndCertificate> {
  const caCert = forge.pki.certificateFromPem(authority.certPem);
  const caKey = forge.pki.privateKeyFromPem(authority.keyPem);
  const keys = await generateRsa(2048);
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = serialNumber();
  cert.validity.notBefore = new Date(now.getTime() - 60 * 60_000);
  cert.validity.notAfter = new Date(now.getTime() + validityDays * 24 * 60 * 60_000);
  cert.setSubject([{ name: 'commonName', value: names.dns[0] ?? names.ips[0] ?? 'hearth' }]);
  cert.setIssuer(caCert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: [...names.dns.map((value) => ({ type: 2, value })), ...names.ips.map((ip) => ({ type: 7, ip }))],
    },
    { name: 'subjectKeyIdentifier' },
    { name: 'authorityKeyIdentifier', keyIdentifier: caCert.generateSubjectKeyIdentifier().getBytes() },
  ]);
  cert.sign(caKey, forge.md.sha256.create());
  return { keyPem: forge.pki.privateKeyToPem(keys.privateKey), certPem: forge.pki.certificateToPem(cert) };
}

/** Whether the authority's Name Constraints allow `names`: a name outside them would make phones refuse the whole certificate. */
export function permittedName(name: string): boolean {
  if (net.isIP(name)) return PERMITTED_IP_RANGES.some(([base, bits]) => inRange(name, base, bits));
  const lower = name.toLowerCase();
  return PERMITTED_DNS_SUFFIXES.some((suffix) => lower === suffix || lower.endsWith(`.${suffix}`));
}

/** The key is made by Node (on the thread pool, never blocking requests), then handed to forge to sign. */
async function generateRsa(modulusLength: number): Promise<forge.pki.rsa.KeyPair> {
  const { privateKey } = await new Promise<{ privateKey: string }>((resolve, reject) =>
    crypto.generateKeyPair(
      'rsa',
      { modulusLength, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } },
      (error, _publicKey, key) => (error ? reject(error) : resolve({ privateKey: key })),
    ),
  );
  const key = forge.pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey;
  return { privateKey: key, publicKey: forge.pki.setRsaPublicKey(key.n, key.e) };
}

/** 16 random bytes with the top bit clear: a positive serial, unpredictable as the CA/Browser rules ask. */
function serialNumber(): string {
  const bytes = crypto.randomBytes(16);
  bytes[0]! &= 0x7f;
  return bytes.toString('hex');
}

function nameConstraints(): forge.asn1.Asn1 {
  const { asn1 } = forge;
  const subtree = (general: forge.asn1.Asn1) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [general]);
  const dns = PERMITTED_DNS_SUFFIXES.map((suffix) => subtree(asn1.create(asn1.Class.CONTEXT_SPECIFIC, 2, false, suffix)));
  const ips = PERMITTED_IP_RANGES.map(([base, bits]) =>
    subtree(asn1.create(asn1.Class.CONTEXT_SPECIFIC, 7, false, addressAndMask(base, bits).toString('binary'))),
  );
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [...dns, ...ips])]);
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
