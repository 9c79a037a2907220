import { createSHA256 } from 'hash-wasm';

/**
 * Read this much of a file at a time: a 4 GiB video is hashed in a few MiB of memory, and
 * each read is large enough that the WebAssembly hasher, not the reads, sets the pace.
 */
export const HASH_CHUNK_BYTES = 4 * 1024 * 1024;

interface Hasher {
  update(chunk: Uint8Array): void;
  digestHex(): string;
}

/** Which hasher to use: WebAssembly where the browser runs it, else plain JavaScript. */
export type HasherKind = 'wasm' | 'js';

/**
 * The WebAssembly hasher, or where WebAssembly is refused, a JavaScript one (@noble/hashes):
 * Safari before 16 (iPhone 6s, 7 and the first SE stay on iOS 15) does not know the worker
 * CSP's 'wasm-unsafe-eval' and refuses to compile WebAssembly under it. Slower, but the
 * photos of an old phone are backed up all the same, and the CSP need not allow eval.
 */
async function newHasher(kind: HasherKind | undefined): Promise<Hasher> {
  if (kind !== 'js') {
    try {
      const wasm = await createSHA256();
      wasm.init();
      return { update: (chunk) => wasm.update(chunk), digestHex: () => wasm.digest('hex') };
    } catch (refused) {
      if (kind === 'wasm') throw refused;
    }
  }
  const [{ sha256 }, { bytesToHex }] = await Promise.all([import('@noble/hashes/sha2.js'), import('@noble/hashes/utils.js')]);
  const js = sha256.create();
  return { update: (chunk) => js.update(chunk), digestHex: () => bytesToHex(js.digest()) };
}

/**
 * The SHA-256 of a file (lowercase hex), read a chunk at a time, never whole. Not
 * crypto.subtle: the browser offers crypto.subtle only in secure contexts, and a phone on the
 * home network opens Hearth over plain HTTP; subtle also has no streaming digest.
 */
export async function sha256Of(file: Blob, chunkBytes = HASH_CHUNK_BYTES, kind?: HasherKind): Promise<string> {
  const hasher = await newHasher(kind);
  const read = (at: number) => file.slice(at, at + chunkBytes).arrayBuffer();
  // The next chunk is read while this one is hashed: the browser reads files at about the
  // speed the hasher hashes, so one after the other would take the sum of both.
  let reading = file.size > 0 ? read(0) : null;
  for (let at = 0; reading !== null; at += chunkBytes) {
    const chunk = new Uint8Array(await reading);
    reading = at + chunkBytes < file.size ? read(at + chunkBytes) : null;
    hasher.update(chunk);
  }
  return hasher.digestHex();
}
