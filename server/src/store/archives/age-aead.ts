import crypto from 'node:crypto';
import { chacha20poly1305 } from '@noble/ciphers/chacha.js';

/**
 * ChaCha20-Poly1305 (RFC 8439, 16-byte tag appended), the only cipher age uses. Node's own
 * (OpenSSL, native: about 15x the JavaScript one) wherever the runtime has it; the desktop app's
 * server runs in Electron, whose BoringSSL has no `chacha20-poly1305` cipher for createCipheriv
 * (electron/electron#24024), so there the audited JavaScript one does the same work.
 */
export interface Aead {
  seal(key: Buffer, nonce: Buffer, plain: Buffer): Buffer;
  /** The same bytes as seal, in the pieces the cipher gave them (ciphertext, tag): a stream joins them with its neighbours' once. */
  sealParts(key: Buffer, nonce: Buffer, plain: Buffer): Buffer[];
  /** The plaintext; throws when the bytes or their tag were changed. */
  open(key: Buffer, nonce: Buffer, sealed: Buffer): Buffer;
}

const TAG = 16;

export const nativeAead: Aead = {
  seal(key, nonce, plain) {
    const [body, tag] = nativeAead.sealParts(key, nonce, plain) as [Buffer, Buffer];
    return Buffer.concat([body, tag], body.length + TAG);
  },
  sealParts(key, nonce, plain) {
    const cipher = crypto.createCipheriv('chacha20-poly1305', key, nonce, { authTagLength: TAG });
    const body = cipher.update(plain);
    cipher.final();
    return [body, cipher.getAuthTag()];
  },
  open(key, nonce, sealed) {
    if (sealed.length < TAG) throw new Error('sealed bytes shorter than their tag');
    const decipher = crypto.createDecipheriv('chacha20-poly1305', key, nonce, { authTagLength: TAG });
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG));
    const plain = decipher.update(sealed.subarray(0, sealed.length - TAG));
    decipher.final();
    return plain;
  },
};

export const portableAead: Aead = {
  seal: (key, nonce, plain) => {
    const sealed = chacha20poly1305(key, nonce).encrypt(plain);
    return Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
  },
  sealParts: (key, nonce, plain) => [portableAead.seal(key, nonce, plain)],
  open(key, nonce, sealed) {
    if (sealed.length < TAG) throw new Error('sealed bytes shorter than their tag');
    const plain = chacha20poly1305(key, nonce).decrypt(sealed);
    return Buffer.from(plain.buffer, plain.byteOffset, plain.byteLength);
  },
};

export const aead: Aead = crypto.getCiphers().includes('chacha20-poly1305') ? nativeAead : portableAead;
