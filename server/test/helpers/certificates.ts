import crypto from 'node:crypto';
import forge from 'node-forge';

/** The names of one kind a Name Constraints subtree list holds. */
export interface NameTrees {
  dns: string[];
  /** "192.168.1.0/24", "::1/128". */
  ips: string[];
  emails: string[];
  uris: string[];
  /** Each directory name as its attributes, "O=Hearth". */
  directoryNames: string[];
}

export interface NameConstraints {
  critical: boolean;
  permitted: NameTrees;
  excluded: NameTrees;
}

const NAME_CONSTRAINTS = '2.5.29.30';

/**
 * A certificate's Name Constraints as written in it, read with node-forge's ASN.1 parser (Node's
 * X509Certificate does not expose them): what a phone that trusts the certificate will enforce.
 * Null when it has none.
 */
export function nameConstraintsOf(pem: string): NameConstraints | null {
  const cert = forge.pki.certificateFromPem(pem);
  const extension = cert.extensions.find((e: { id: string }) => e.id === NAME_CONSTRAINTS) as
    { critical?: boolean; value: string } | undefined;
  if (!extension) return null;
  const sequence = forge.asn1.fromDer(extension.value);
  const found: NameConstraints = { critical: extension.critical === true, permitted: emptyTrees(), excluded: emptyTrees() };
  for (const part of sequence.value as forge.asn1.Asn1[]) {
    const trees = part.type === 0 ? found.permitted : found.excluded;
    for (const subtree of part.value as forge.asn1.Asn1[]) readGeneralName((subtree.value as forge.asn1.Asn1[])[0]!, trees);
  }
  return found;
}

/** The extended key usages (OIDs) a certificate names; empty when it has no such extension (any use). */
export function extendedKeyUsagesOf(pem: string): string[] {
  const usage = new crypto.X509Certificate(pem).keyUsage;
  return usage ?? [];
}

export const SERVER_AUTH = '1.3.6.1.5.5.7.3.1';
export const EMAIL_PROTECTION = '1.3.6.1.5.5.7.3.4';

function emptyTrees(): NameTrees {
  return { dns: [], ips: [], emails: [], uris: [], directoryNames: [] };
}

function readGeneralName(name: forge.asn1.Asn1, trees: NameTrees): void {
  const text = () => String(name.value);
  switch (name.type) {
    case 1:
      trees.emails.push(text());
      break;
    case 2:
      trees.dns.push(text());
      break;
    case 4:
      trees.directoryNames.push(directoryName((name.value as forge.asn1.Asn1[])[0]!));
      break;
    case 6:
      trees.uris.push(text());
      break;
    case 7:
      trees.ips.push(addressAndPrefix(Buffer.from(text(), 'binary')));
      break;
  }
}

function directoryName(sequence: forge.asn1.Asn1): string {
  return (sequence.value as forge.asn1.Asn1[])
    .flatMap((set) => set.value as forge.asn1.Asn1[])
    .map((pair) => {
      const [oid, value] = pair.value as [forge.asn1.Asn1, forge.asn1.Asn1];
      const id = forge.asn1.derToOid(String(oid.value));
      const short =
        (forge.pki.oids[id] as string | undefined) === 'organizationName' ? 'O' : forge.pki.oids[id] === 'commonName' ? 'CN' : id;
      return `${short}=${String(value.value)}`;
    })
    .join(', ');
}

function addressAndPrefix(bytes: Buffer): string {
  const half = bytes.length / 2;
  const address = bytes.subarray(0, half);
  const mask = bytes.subarray(half);
  const bits = [...mask].reduce((sum, byte) => sum + byte.toString(2).replace(/0/g, '').length, 0);
  if (half === 4) return `${[...address].join('.')}/${bits}`;
  const groups = Array.from({ length: 8 }, (_, i) => address.readUInt16BE(i * 2).toString(16));
  const text = new URL(`http://[${groups.join(':')}]/`).hostname.slice(1, -1);
  return `${text}/${bits}`;
}

/** What an attacker holding the authority's key would ask it to vouch for. */
export interface ForgedLeaf {
  commonName: string;
  /** Subject before the common name, as forge fields ("O=Hearth": [{ name: 'organizationName', value: 'Hearth' }]). */
  subjectPrefix?: { name: string; value: string }[];
  dns?: string[];
  ips?: string[];
  emails?: string[];
  usage: 'serverAuth' | 'emailProtection';
}

/**
 * A certificate signed with the authority's own key, as someone who copied keys.json could make
 * one: the authority's limits are all that stands between it and a phone that trusts the
 * authority.
 */
export function signWithAuthority(authority: { keyPem: string; certPem: string }, leaf: ForgedLeaf): string {
  const caCert = forge.pki.certificateFromPem(authority.certPem);
  const caKey = forge.pki.privateKeyFromPem(authority.keyPem);
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()) as forge.pki.rsa.PrivateKey;
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  cert.serialNumber = '01' + crypto.randomBytes(15).toString('hex');
  cert.validity.notBefore = new Date(Date.now() - 3_600_000);
  cert.validity.notAfter = new Date(Date.now() + 30 * 86_400_000);
  cert.setSubject([...(leaf.subjectPrefix ?? []), { name: 'commonName', value: leaf.commonName }]);
  cert.setIssuer(caCert.subject.attributes);
  const altNames = [
    ...(leaf.dns ?? []).map((value) => ({ type: 2, value })),
    ...(leaf.ips ?? []).map((ip) => ({ type: 7, ip })),
    ...(leaf.emails ?? []).map((value) => ({ type: 1, value })),
  ];
  cert.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    {
      name: 'keyUsage',
      digitalSignature: true,
      keyEncipherment: leaf.usage === 'serverAuth',
      nonRepudiation: leaf.usage === 'emailProtection',
      critical: true,
    },
    { name: 'extKeyUsage', [leaf.usage]: true },
    { name: 'subjectAltName', altNames },
    { name: 'authorityKeyIdentifier', keyIdentifier: caCert.generateSubjectKeyIdentifier().getBytes() },
  ]);
  cert.sign(caKey, forge.md.sha256.create());
  return forge.pki.certificateToPem(cert);
}
