/**
 * A camera roll on disk for the phone-backup benchmark, and the page cache around it: photo-
 * sized files that every decoder takes for a JPEG, made fast enough that 4 GiB of them cost
 * seconds, not the minutes real 12-megapixel encodes would (lib/photos.ts).
 */
import { execFile, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { MiB, syncDisks } from './transfer.ts';

export interface RollPhoto {
  file: string;
  name: string;
  bytes: number;
  sha256: string;
}

/** The largest APPn segment: 2 marker bytes, 2 length bytes, 65,533 bytes of payload. */
const SEGMENT_PAYLOAD = 65_533;
const SEGMENT_HEAD = 4;
/** Every file's last-modified time is fixed, as a phone's photos are: the hash cache keys on it. */
const TAKEN = Date.UTC(2024, 5, 1, 10);

/**
 * `count` distinct JPEGs of `meanBytes` on average (half to one and a half times it, spread
 * evenly): a tiny real image, padded with APP15 segments of noise after its SOI marker, so a
 * decoder skips the padding and the server makes a thumbnail in a few milliseconds, while the
 * hashers read every byte. Each segment is stamped with the photo's and its own number, so no
 * two files (and no two segments) share content.
 */
export async function makeCameraRoll(dir: string, count: number, meanBytes: number): Promise<RollPhoto[]> {
  const image = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 90, g: 140, b: 200 } } })
    .jpeg({ quality: 80 })
    .toBuffer();
  const pool = crypto.randomBytes(64 * MiB);
  const photos: RollPhoto[] = [];
  for (let i = 0; i < count; i++) {
    // The golden ratio's fractional steps spread the sizes evenly between 0.5x and 1.5x the mean.
    const bytes = Math.round(meanBytes * (0.5 + ((i * 0.6180339887) % 1)));
    const parts = [image.subarray(0, 2), ...padding(bytes - image.length, i, pool), image.subarray(2)];
    const content = Buffer.concat(parts);
    const name = `IMG_${String(i + 1).padStart(5, '0')}.jpg`;
    const file = path.join(dir, name);
    await fsp.writeFile(file, content);
    const taken = new Date(TAKEN + i * 60_000);
    await fsp.utimes(file, taken, taken);
    photos.push({ file, name, bytes: content.length, sha256: crypto.createHash('sha256').update(content).digest('hex') });
  }
  await syncDisks();
  return photos;
}

function padding(total: number, photo: number, pool: Buffer): Buffer[] {
  const segments = Math.ceil(total / (SEGMENT_HEAD + SEGMENT_PAYLOAD));
  const parts: Buffer[] = [];
  let left = total;
  for (let s = 0; s < segments; s++) {
    const size = Math.ceil(left / (segments - s));
    left -= size;
    const head = Buffer.alloc(SEGMENT_HEAD + 8);
    head.writeUInt16BE(0xffef, 0);
    head.writeUInt16BE(size - 2, 2);
    head.writeUInt32BE(photo, 4);
    head.writeUInt32BE(s, 8);
    const from = (photo * 7919 + s * 104_729) % (pool.length - SEGMENT_PAYLOAD);
    parts.push(head, pool.subarray(from, from + size - head.length));
  }
  return parts;
}

/**
 * Evicts the files from the page cache (posix_fadvise DONTNEED through `dd iflag=nocache`,
 * after `sync`, since dirty pages stay): the next read comes from the disk, as on a phone that
 * has not opened its photos lately. "Cold-ish": a virtual disk may still be served from the
 * host's cache. Only these files are evicted, never the whole machine's cache.
 */
export async function evict(files: readonly string[]): Promise<void> {
  await syncDisks();
  const child = spawn('bash', ['-c', 'while IFS= read -r f; do dd if="$f" iflag=nocache count=0 status=none; done'], {
    stdio: ['pipe', 'ignore', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.stdin.end(files.map((f) => `${f}\n`).join(''));
  const code = await exited;
  if (code !== 0) throw new Error(`evicting the files from the page cache failed (${code})`);
}

/** Reads every file once, so the next reader finds them all in the page cache. */
export async function warm(files: readonly string[]): Promise<void> {
  for (const file of files) await fsp.readFile(file);
}

const execFileAsync = promisify(execFile);

/** How many of the files' bytes are in the page cache right now (fincore), or NaN without fincore. */
export async function residentBytes(files: readonly string[]): Promise<number> {
  let total = 0;
  try {
    for (let at = 0; at < files.length; at += 500) {
      const { stdout } = await execFileAsync('fincore', [
        '--bytes',
        '--noheadings',
        '--raw',
        '--output',
        'RES',
        ...files.slice(at, at + 500),
      ]);
      total += stdout
        .split('\n')
        .filter(Boolean)
        .reduce((sum, line) => sum + Number(line), 0);
    }
    return total;
  } catch {
    return Number.NaN;
  }
}

/**
 * Wall time of `command` (sha256sum, sha1sum) over all the files, in `lanes` processes started
 * together, each given every lanes-th file: the same number of files at once as the browser's
 * hashing workers.
 */
export async function timeHashCommand(command: string, files: readonly string[], lanes: number): Promise<number> {
  const groups = Array.from({ length: lanes }, (_, lane) => files.filter((_, i) => i % lanes === lane));
  const started = performance.now();
  await Promise.all(
    groups.map(
      (group) =>
        new Promise<void>((resolve, reject) => {
          const child = spawn(command, ['--', ...group], { stdio: ['ignore', 'ignore', 'inherit'] });
          child.once('error', reject);
          child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}`))));
        }),
    ),
  );
  return performance.now() - started;
}
