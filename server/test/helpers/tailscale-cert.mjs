// `tailscale cert` for the tests' stand-in CLI (tailscale-cli.ts): a certificate and key for the
// name asked, valid for the days asked, made with Node's crypto and node-forge so the tests need
// nothing but Node (no openssl on a fresh machine). Arguments: cert-file key-file days name.
import crypto from 'node:crypto';
import fs from 'node:fs';
import process from 'node:process';
import forge from 'node-forge';

const [certFile, keyFile, daysText, name] = process.argv.slice(2);
const days = Number(daysText);
if (!certFile || !keyFile || !name || !Number.isFinite(days)) {
  process.stderr.write('usage: tailscale-cert.mjs cert-file key-file days name\n');
  process.exit(2);
}
const keyPem = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' });
const key = forge.pki.privateKeyFromPem(String(keyPem));
const cert = forge.pki.createCertificate();
cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
cert.serialNumber = crypto
  .randomBytes(8)
  .toString('hex')
  .replace(/^[89a-f]/, '1');
cert.validity.notBefore = new Date(Date.now() - 60_000);
cert.validity.notAfter = new Date(Date.now() + days * 86_400_000);
cert.setSubject([{ name: 'commonName', value: name }]);
cert.setIssuer([{ name: 'commonName', value: name }]);
cert.setExtensions([{ name: 'subjectAltName', altNames: [{ type: 2, value: name }] }]);
cert.sign(key, forge.md.sha256.create());
fs.writeFileSync(keyFile, String(keyPem), { mode: 0o600 });
fs.writeFileSync(certFile, forge.pki.certificateToPem(cert));
