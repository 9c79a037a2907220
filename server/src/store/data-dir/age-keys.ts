import crypto from 'node:crypto';
import { bech32 } from '@scure/base';

/**
 * age's X25519 keys as people see them (https://age-encryption.org/v1): the identity
 * `AGE-SECRET-KEY-1…` (the private scalar) and the recipient `age1…` (its public key), both
 * bech32. Node's own X25519 does the arithmetic (raw keys wrapped in DER); a runtime whose crypto
 * cannot (checked once, against RFC 7748's example) uses the audited JavaScript one, loaded only
 * then: loading it made each copying thread (content-copy-worker.ts) 25 ms slower to start.
 */
const IDENTITY_PREFIX = 'age-secret-key-';
const RECIPIENT_PREFIX = 'age';

/** A new identity, upper case as age-keygen prints it. */
export function generateIdentity(): string {
  return encode(IDENTITY_PREFIX, crypto.randomBytes(32)).toUpperCase();
}

/** The public key (`age1…`) of an identity. Throws when it is not an X25519 identity. */
export function identityToRecipient(identity: string): string {
  return encode(RECIPIENT_PREFIX, publicKeyOf(identityBytes(identity)));
}

/** An identity's 32-byte scalar. Throws on anything else (a post-quantum key, a typo the checksum catches). */
export function identityBytes(identity: string): Buffer {
  return decode(identity, IDENTITY_PREFIX);
}

/** A recipient's 32-byte public key. */
export function recipientBytes(recipient: string): Buffer {
  return decode(recipient, RECIPIENT_PREFIX);
}

export function publicKeyOf(scalar: Buffer): Buffer {
  if (portableX25519) return Buffer.from(portableX25519.getPublicKey(scalar));
  return Buffer.from(crypto.createPublicKey(privateKey(scalar)).export({ format: 'jwk' }).x!, 'base64url');
}

/** X25519(scalar, point). Throws when the point is of low order (the shared secret would be all zeros). */
export function x25519(scalar: Buffer, point: Buffer): Buffer {
  if (point.length !== 32) throw new Error('an X25519 share is 32 bytes');
  const shared = portableX25519
    ? Buffer.from(portableX25519.getSharedSecret(scalar, point))
    : crypto.diffieHellman({ privateKey: privateKey(scalar), publicKey: publicKeyObject(point) });
  return notLowOrder(shared);
}

/**
 * A new key pair's public share and X25519(its scalar, point): what each encrypted file begins
 * with. Natively a generated pair (a twentieth of a millisecond), not a scalar wrapped in DER,
 * whose import alone costs ten times that for every file of a backup.
 */
export function ephemeralAgreement(point: Buffer): { share: Buffer; shared: Buffer } {
  if (point.length !== 32) throw new Error('an X25519 share is 32 bytes');
  if (!generatesPairs) {
    const scalar = crypto.randomBytes(32);
    return { share: publicKeyOf(scalar), shared: x25519(scalar, point) };
  }
  const { privateKey: ephemeral, publicKey } = crypto.generateKeyPairSync('x25519');
  const share = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url');
  return { share, shared: notLowOrder(crypto.diffieHellman({ privateKey: ephemeral, publicKey: publicKeyObject(point) })) };
}

function notLowOrder(shared: Buffer): Buffer {
  if (shared.every((byte) => byte === 0)) throw new Error('X25519 share of low order');
  return shared;
}

// The DER wrappers of a raw X25519 key (RFC 8410), so Node takes the 32 bytes as they are.
const PKCS8_PREFIX = Buffer.from('302e020100300506032b656e04220420', 'hex');
const SPKI_PREFIX = Buffer.from('302a300506032b656e032100', 'hex');

function privateKey(scalar: Buffer): crypto.KeyObject {
  if (scalar.length !== 32) throw new Error('an X25519 key is 32 bytes');
  if (lastPrivate?.scalar.equals(scalar)) return lastPrivate.key;
  const key = crypto.createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, scalar]), format: 'der', type: 'pkcs8' });
  lastPrivate = { scalar: Buffer.from(scalar), key };
  return key;
}

function publicKeyObject(point: Buffer): crypto.KeyObject {
  if (lastPublic?.point.equals(point)) return lastPublic.key;
  const key = crypto.createPublicKey({ key: Buffer.concat([SPKI_PREFIX, point]), format: 'der', type: 'spki' });
  lastPublic = { point: Buffer.from(point), key };
  return key;
}

/**
 * The last key imported, kept: a backup encrypts every file to the same recipient and a restore
 * opens every file with the same identity, and an import costs more than the arithmetic.
 */
let lastPrivate: { scalar: Buffer; key: crypto.KeyObject } | null = null;
let lastPublic: { point: Buffer; key: crypto.KeyObject } | null = null;

/** Whether this runtime's crypto does X25519 on raw keys: RFC 7748 section 6.1's key pair. */
const native = (() => {
  const scalar = Buffer.from('77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a', 'hex');
  try {
    const x = crypto.createPublicKey(privateKey(scalar)).export({ format: 'jwk' }).x!;
    return Buffer.from(x, 'base64url').toString('hex') === '8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a';
  } catch {
    return false;
  }
})();

const portableX25519 = native ? null : (await import('@noble/curves/ed25519.js')).x25519;

/** Whether it also generates X25519 pairs (Electron's BoringSSL is not Node's OpenSSL: checked, not assumed). */
const generatesPairs = (() => {
  if (!native) return false;
  try {
    return crypto.generateKeyPairSync('x25519').publicKey.export({ format: 'jwk' }).x?.length === 43;
  } catch {
    return false;
  }
})();

function encode(prefix: string, bytes: Buffer): string {
  // false: no 90-character limit, as age (its keys are shorter anyway).
  return bech32.encode(prefix, bech32.toWords(bytes), false);
}

function decode(text: string, prefix: string): Buffer {
  const { prefix: found, words } = bech32.decode(text as `${string}1${string}`, false);
  const bytes = Buffer.from(bech32.fromWords(words));
  if (found !== prefix || bytes.length !== 32) throw new Error(`not an age ${prefix === RECIPIENT_PREFIX ? 'recipient' : 'identity'}`);
  return bytes;
}
