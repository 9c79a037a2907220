import crypto from 'node:crypto';

/**
 * ChaCha20-Poly1305 (RFC 8439, 16-byte tag appended), the only cipher age uses. Node's own
 * (OpenSSL, native) wherever the runtime has it. The desktop app's server runs in Electron, whose
 * BoringSSL has no `chacha20-poly1305` cipher for createCipheriv (electron/electron#24024): there
 * libsodium's WebAssembly build does the same work, loaded only then (about 3.5 CPU s per GiB
 * here, against 0.9 natively and 10 for the JavaScript @noble/ciphers it replaced:
 * `npm run bench -- age-cipher`).
 */
export interface Aead {
  seal(key: Buffer, nonce: Buffer, plain: Buffer): Buffer;
  /** The same bytes as seal, in the pieces the cipher gave them (ciphertext, tag): a stream joins them with its neighbours' once. */
  sealParts(key: Buffer, nonce: Buffer, plain: Buffer): Buffer[];
  /** The plaintext; throws when the bytes or their tag were changed. */
  open(key: Buffer, nonce: Buffer, sealed: Buffer): Buffer;
}

const TAG = 16;

/** A chunk's ciphertext and tag as one buffer, as age stores them. */
const joined = ([body, tag]: Buffer[]) => Buffer.concat([body!, tag!], body!.length + TAG);

export const nativeAead: Aead = {
  seal: (key, nonce, plain) => joined(nativeAead.sealParts(key, nonce, plain)),
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

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** libsodium's ChaCha20-Poly1305 (IETF: 96-bit nonce, as RFC 8439), once its WebAssembly is compiled. */
export async function loadPortableAead(): Promise<Aead> {
  const sodium = (await import('libsodium-wrappers')).default;
  await sodium.ready;
  const portable: Aead = {
    seal: (key, nonce, plain) => joined(portable.sealParts(key, nonce, plain)),
    sealParts(key, nonce, plain) {
      // Its outputs are copied out of the WebAssembly memory, so they are the caller's to keep.
      const { ciphertext, mac } = sodium.crypto_aead_chacha20poly1305_ietf_encrypt_detached(plain, null, null, nonce, key);
      return [asBuffer(ciphertext), asBuffer(mac)];
    },
    open(key, nonce, sealed) {
      if (sealed.length < TAG) throw new Error('sealed bytes shorter than their tag');
      const body = sealed.subarray(0, sealed.length - TAG);
      const tag = sealed.subarray(sealed.length - TAG);
      return asBuffer(sodium.crypto_aead_chacha20poly1305_ietf_decrypt_detached(null, body, tag, null, nonce, key));
    },
  };
  return portable;
}

export const aead: Aead = crypto.getCiphers().includes('chacha20-poly1305') ? nativeAead : await loadPortableAead();
