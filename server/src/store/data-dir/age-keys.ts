import crypto from 'node:crypto';
import { bech32 } from '@scure/base';

/**
 * age's X25519 keys as people see them (https://age-encryption.org/v1): the identity
 * `AGE-SECRET-KEY-1…` (the private scalar) and the recipient `age1…` (its public key), both
 * bech32. Node's own X25519 does the arithmetic: it takes raw keys as JWK.
 */
const IDENTITY_PREFIX = 'age-secret-key-';
const RECIPIENT_PREFIX = 'age';

/** A new identity, upper case as age-keygen prints it. */
export function generateIdentity(): string {
  const { privateKey } = crypto.generateKeyPairSync('x25519');
  const d = Buffer.from(privateKey.export({ format: 'jwk' }).d!, 'base64url');
  return encode(IDENTITY_PREFIX, d).toUpperCase();
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
  return Buffer.from(crypto.createPublicKey(privateKey(scalar)).export({ format: 'jwk' }).x!, 'base64url');
}

/** X25519(scalar, point). Throws when the point is of low order (the shared secret would be all zeros). */
export function x25519(scalar: Buffer, point: Buffer): Buffer {
  if (point.length !== 32) throw new Error('an X25519 share is 32 bytes');
  const publicKey = crypto.createPublicKey({ key: Buffer.concat([SPKI_PREFIX, point]), format: 'der', type: 'spki' });
  const shared = crypto.diffieHellman({ privateKey: privateKey(scalar), publicKey });
  if (shared.every((byte) => byte === 0)) throw new Error('X25519 share of low order');
  return shared;
}

// The DER wrappers of a raw X25519 key (RFC 8410), so Node takes the 32 bytes as they are.
const PKCS8_PREFIX = Buffer.from('302e020100300506032b656e04220420', 'hex');
const SPKI_PREFIX = Buffer.from('302a300506032b656e032100', 'hex');

function privateKey(scalar: Buffer): crypto.KeyObject {
  if (scalar.length !== 32) throw new Error('an X25519 key is 32 bytes');
  return crypto.createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, scalar]), format: 'der', type: 'pkcs8' });
}

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
