import crypto from 'node:crypto';
import forge from 'node-forge';
import { leafSubject, nameConstraintsFor, type AuthorityScope } from './authority-scope.ts';
import type { CertificateNames } from './certificate-names.ts';

/** A certificate and its private key, PEM-encoded. */
export interface KeyAndCertificate {
  keyPem: string;
  certPem: string;
}

const AUTHORITY_YEARS = 20;

/**
 * A new certificate authority for `scope` alone, its key RSA 3072 (what every phone since Android
 * 4 and iOS 9 accepts). It signs certificates and nothing else (keyCertSign, cRLSign), for TLS
 * servers only (extended key usage serverAuth, which verifiers hold the whole chain to: nothing
 * it signs is good for S/MIME, code or client sign-in), within critical Name Constraints
 * (authority-scope.ts).
 */
export async function createAuthority(commonName: string, scope: AuthorityScope, now: Date): Promise<KeyAndCertificate> {
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
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectKeyIdentifier' },
    { id: '2.5.29.30', name: 'nameConstraints', critical: true, value: nameConstraintsFor(scope) },
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
  cert.setSubject(leafSubject(names.dns[0] ?? names.ips[0] ?? 'hearth'));
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
