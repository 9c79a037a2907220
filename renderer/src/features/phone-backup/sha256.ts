import { createSHA256 } from 'hash-wasm';

/**
 * Read this much of a file at a time: a 4 GiB video is hashed in a few MiB of memory, and
 * each read is large enough that the WebAssembly hasher, not the reads, sets the pace.
 */
export const HASH_CHUNK_BYTES = 4 * 1024 * 1024;

/**
 * The SHA-256 of a file (lowercase hex), read a chunk at a time, never whole. hash-wasm, not
 * crypto.subtle: the browser offers crypto.subtle only in secure contexts, and a phone on the
 * home network opens Hearth over plain HTTP; subtle also has no streaming digest.
 */
export async function sha256Of(file: Blob, chunkBytes = HASH_CHUNK_BYTES): Promise<string> {
  const hasher = await createSHA256();
  hasher.init();
  for (let at = 0; at < file.size; at += chunkBytes) {
    const chunk = new Uint8Array(await file.slice(at, at + chunkBytes).arrayBuffer());
    hasher.update(chunk);
  }
  return hasher.digest('hex');
}
