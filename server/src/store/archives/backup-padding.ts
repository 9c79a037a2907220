/**
 * The sizes an encrypted backup shows. age keeps a file's length (plus a small header), so a
 * folder of exact sizes tells a stranger which files are which (a film, a scanned passport).
 * Every file of an encrypted backup is padded before it is encrypted: to Padmé's size (the
 * length rounded so that only its highest bits remain: at most 6.25% more, under 1% for most
 * photos and films; docs/backup-format.md), and to at least 1 KiB, so small notes all look alike.
 * The manifest records the true size; a reader stops there.
 */
export const MIN_PADDED_SIZE = 1024;

export function paddedSize(length: number): number {
  if (length <= MIN_PADDED_SIZE) return MIN_PADDED_SIZE;
  const exponent = Math.floor(Math.log2(length));
  const kept = Math.floor(Math.log2(exponent)) + 1;
  const step = 2 ** (exponent - kept);
  return Math.ceil(length / step) * step;
}

/** What padding is made of: a JSON file's is spaces (it still parses, `age -d` gives valid JSON), a binary's zeros. */
export type Filler = 'zeros' | 'spaces';

const PAD_CHUNK = 64 * 1024;

/** The source, then filler up to its padded size. */
export async function* padded(source: AsyncIterable<Buffer>, filler: Filler): AsyncGenerator<Buffer> {
  let size = 0;
  for await (const chunk of source) {
    size += chunk.length;
    yield chunk;
  }
  const byte = filler === 'spaces' ? 0x20 : 0;
  for (let left = paddedSize(size) - size; left > 0; left -= PAD_CHUNK) yield Buffer.alloc(Math.min(left, PAD_CHUNK), byte);
}

/**
 * The first `size` bytes of a padded file; what follows is padding. Reads at least one chunk,
 * so a file that does not decrypt says so; `drain` reads the padding too (and so proves every
 * chunk of the file whole), as "Check backup" does.
 */
export async function* firstBytes(source: AsyncIterable<Buffer>, size: number, drain = false): AsyncGenerator<Buffer> {
  let left = size;
  for await (const chunk of source) {
    if (left === 0 && drain) continue;
    if (chunk.length >= left) {
      if (left > 0) yield chunk.subarray(0, left);
      left = 0;
      if (!drain) return;
      continue;
    }
    left -= chunk.length;
    yield chunk;
  }
}
