import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import forge from 'node-forge';

/**
 * An authority as the release before its limits made it (issue 24): no extended key usage (any
 * use, S/MIME included), and Name Constraints that permit every home-network suffix and private
 * range. Written into `<dataDir>/keys.json` as that release kept it (no record of downloads), so
 * a test can start today's server on the data folder of a family whose phones already trust it.
 */
export function writeOlderAuthority(dataDir: string): { certPem: string; fingerprint: string } {
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()) as forge.pki.rsa.PrivateKey;
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  cert.serialNumber = '01' + crypto.randomBytes(15).toString('hex');
  cert.validity.notBefore = new Date(Date.now() - 86_400_000);
  cert.validity.notAfter = new Date(Date.now() + 20 * 365 * 86_400_000);
  const subject = [
    { name: 'commonName', value: 'Hearth home network' },
    { name: 'organizationName', value: 'Hearth' },
  ];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    { name: 'subjectKeyIdentifier' },
    { id: '2.5.29.30', name: 'nameConstraints', critical: true, value: broadConstraints() },
  ]);
  cert.sign(key, forge.md.sha256.create());
  const certPem = forge.pki.certificateToPem(cert);
  const file = path.join(dataDir, 'keys.json');
  const keys = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  keys.authority = { keyPem: forge.pki.privateKeyToPem(key), certPem };
  fs.writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  return { certPem, fingerprint: new crypto.X509Certificate(certPem).fingerprint256 };
}

const SUFFIXES = ['local', 'localhost', 'home.arpa', 'lan', 'internal', 'home', 'localdomain'];
const RANGES: [number[], number[]][] = [
  [
    [10, 0, 0, 0],
    [255, 0, 0, 0],
  ],
  [
    [172, 16, 0, 0],
    [255, 240, 0, 0],
  ],
  [
    [192, 168, 0, 0],
    [255, 255, 0, 0],
  ],
  [
    [127, 0, 0, 0],
    [255, 0, 0, 0],
  ],
  [
    [169, 254, 0, 0],
    [255, 255, 0, 0],
  ],
  [
    [100, 64, 0, 0],
    [255, 192, 0, 0],
  ],
  [
    [0xfc, ...Array<number>(15).fill(0)],
    [0xfe, ...Array<number>(15).fill(0)],
  ],
  [
    [0xfe, 0x80, ...Array<number>(14).fill(0)],
    [0xff, 0xc0, ...Array<number>(14).fill(0)],
  ],
  [[...Array<number>(15).fill(0), 1], Array<number>(16).fill(0xff)],
];

function broadConstraints(): forge.asn1.Asn1 {
  const { asn1 } = forge;
  const subtree = (general: forge.asn1.Asn1) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [general]);
  const dns = SUFFIXES.map((suffix) => subtree(asn1.create(asn1.Class.CONTEXT_SPECIFIC, 2, false, suffix)));
  const ips = RANGES.map(([address, mask]) =>
    subtree(asn1.create(asn1.Class.CONTEXT_SPECIFIC, 7, false, Buffer.from([...address, ...mask]).toString('binary'))),
  );
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [...dns, ...ips])]);
}
