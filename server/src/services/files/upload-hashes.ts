import crypto, { type Hash } from 'node:crypto';

/**
 * Uploads remembered at once, at most: past it the oldest is forgotten (its completion then
 * reads its file again, as after a restart). A few hundred bytes each.
 */
const MAX_RUNNING = 10_000;

/**
 * The SHA-256 of each unfinished upload's bytes so far, carried from one PATCH to the next, so
 * that the completing one knows the whole file's without reading it again (a second pass over
 * every byte, in the client's wait: tus clients send a file in many requests). Held in memory
 * only: after a restart, or whenever the bytes on disk and the hash could differ, there is
 * none and completion reads the file.
 */
export class UploadHashes {
  private readonly running = new Map<string, { hash: Hash; offset: number }>();

  /**
   * The hash of the upload's first `offset` bytes, taken out while a request writes on (it is
   * given back with `keep`): a fresh one at 0, none when the one held is not at `offset`.
   */
  take(uploadId: string, offset: number): Hash | null {
    const held = this.running.get(uploadId);
    this.running.delete(uploadId);
    if (offset === 0) return crypto.createHash('sha256');
    return held?.offset === offset ? held.hash : null;
  }

  /** `hash` covers exactly the upload's first `offset` bytes on disk. */
  keep(uploadId: string, hash: Hash, offset: number): void {
    this.running.delete(uploadId);
    if (this.running.size >= MAX_RUNNING) this.running.delete(this.running.keys().next().value!);
    this.running.set(uploadId, { hash, offset });
  }

  forget(uploadId: string): void {
    this.running.delete(uploadId);
  }
}
