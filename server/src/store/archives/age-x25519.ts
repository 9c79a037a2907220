import { ephemeralAgreement, publicKeyOf, x25519 } from '../data-dir/age-keys.ts';
import { aead } from './age-aead.ts';
import { base64, decodeBase64, hkdf, type Stanza } from './age-header.ts';

/**
 * age's X25519 recipient stanza: `-> X25519 <ephemeral share>` and the file key wrapped with
 * ChaCha20-Poly1305 (zero nonce) under HKDF-SHA256(salt = share || recipient,
 * info "age-encryption.org/v1/X25519") of the shared secret.
 */
const TYPE = 'X25519';
const INFO = 'age-encryption.org/v1/X25519';
const ZERO_NONCE = Buffer.alloc(12);

export function wrapFileKey(fileKey: Buffer, recipient: Buffer): Stanza {
  const { share, shared } = ephemeralAgreement(recipient);
  const key = hkdf(shared, Buffer.concat([share, recipient]), INFO);
  return { args: [TYPE, base64(share)], body: aead.seal(key, ZERO_NONCE, fileKey) };
}

/** The file key from the first X25519 stanza this identity opens; null when none does. Throws on a malformed X25519 stanza. */
export function unwrapFileKey(stanzas: readonly Stanza[], identity: Buffer): Buffer | null {
  const recipient = publicKeyOf(identity);
  for (const stanza of stanzas) {
    if (stanza.args[0] !== TYPE) continue;
    if (stanza.args.length !== 2 || stanza.body.length !== 32) throw new Error('bad X25519 stanza');
    const share = decodeBase64(stanza.args[1]!, 43);
    if (share.length !== 32) throw new Error('bad X25519 share');
    const key = hkdf(x25519(identity, share), Buffer.concat([share, recipient]), INFO);
    try {
      return aead.open(key, ZERO_NONCE, stanza.body);
    } catch {
      // Another recipient's stanza: try the next.
    }
  }
  return null;
}
