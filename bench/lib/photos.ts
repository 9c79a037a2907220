/**
 * Camera-like JPEGs for the media benchmark: 4000x3000 (12 megapixels), quality 90, a smooth
 * colour field different in every file plus per-pixel noise, so they weigh what a phone photo
 * weighs (about 3 MiB) and no two decode alike. Some carry EXIF orientation 6 (the pixels are
 * stored turned a quarter, as a phone held upright writes them) and a DateTimeOriginal.
 */
import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';

export const PHOTO_WIDTH = 4000;
export const PHOTO_HEIGHT = 3000;
const QUALITY = 90;
/** Noise amplitude: +-16 levels, uniform; with q90 this lands files at about 3 MiB. */
const NOISE_MASK = 31;
const NOISE_BIAS = 16;
const NOISE_SLACK = 65_536;

export interface Photo {
  file: string;
  name: string;
  bytes: number;
  /** EXIF orientation 6: the server must report 3000x4000. */
  rotated: boolean;
  /** Capture time in EXIF, as the server must read it (ms, UTC wall clock), or null. */
  takenAt: number | null;
}

/** Every third photo rotated with a capture time, every third with a capture time only, the rest without EXIF. */
function kindOf(i: number): { rotated: boolean; dated: boolean } {
  return { rotated: i % 3 === 0, dated: i % 3 !== 2 };
}

/** A smooth curve along one axis: a few sine waves of random period, phase and amplitude. */
function curve(length: number, random: () => number): Float32Array {
  const out = new Float32Array(length);
  const waves = Array.from({ length: 3 }, () => ({
    f: ((1 + random() * 6) * 2 * Math.PI) / length,
    phase: random() * 2 * Math.PI,
    a: 20 + random() * 40,
  }));
  for (let i = 0; i < length; i++) {
    let v = 0;
    for (const w of waves) v += w.a * Math.sin(i * w.f + w.phase);
    out[i] = v;
  }
  return out;
}

/** RGB pixels of photo `i`: column curve + row curve + mean per channel, plus the shared noise at a per-photo offset. */
function pixels(i: number, noise: Buffer): Buffer {
  let state = Math.imul(i + 1, 2654435761) >>> 0 || 1;
  const random = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const W = PHOTO_WIDTH;
  const H = PHOTO_HEIGHT;
  const px = Buffer.allocUnsafe(W * H * 3);
  const offset = Math.floor(random() * NOISE_SLACK);
  const cols = [0, 1, 2].map(() => curve(W, random));
  const rows = [0, 1, 2].map(() => curve(H, random));
  const mean = [0, 1, 2].map(() => 80 + random() * 100);
  for (let y = 0; y < H; y++) {
    for (let c = 0; c < 3; c++) {
      const col = cols[c]!;
      const row = rows[c]![y]! + mean[c]!;
      for (let x = 0, k = y * W * 3 + c; x < W; x++, k += 3) {
        const v = col[x]! + row + ((noise[k + offset]! & NOISE_MASK) - NOISE_BIAS);
        px[k] = v < 0 ? 0 : v > 255 ? 255 : v;
      }
    }
  }
  return px;
}

/**
 * Writes `count` photos into `dir`. The pixels of the next photo are computed (JS, main
 * thread) while sharp encodes the previous one (libuv pool), about 0.4 s a photo on 2 cores.
 */
export async function writePhotos(dir: string, count: number): Promise<Photo[]> {
  const noise = crypto.randomBytes(PHOTO_WIDTH * PHOTO_HEIGHT * 3 + NOISE_SLACK);
  const photos: Photo[] = [];
  let encoding: Promise<void> | null = null;
  for (let i = 0; i < count; i++) {
    const px = pixels(i, noise);
    if (encoding) await encoding;
    const { rotated, dated } = kindOf(i);
    // Distinct capture times a minute apart, from 2023-07-14 10:00:00 (read as UTC).
    const takenAt = dated ? Date.UTC(2023, 6, 14, 10, i, 0) : null;
    const name = `IMG_${String(i + 1).padStart(4, '0')}.jpg`;
    const file = path.join(dir, name);
    let image = sharp(px, { raw: { width: PHOTO_WIDTH, height: PHOTO_HEIGHT, channels: 3 } }).jpeg({ quality: QUALITY });
    if (takenAt !== null)
      image = image.withExif({ IFD0: { Make: 'Hearth', Model: 'Bench camera' }, IFD2: { DateTimeOriginal: exifTime(takenAt) } });
    if (rotated) image = image.withMetadata({ orientation: 6 });
    const photo: Photo = { file, name, bytes: 0, rotated, takenAt };
    photos.push(photo);
    encoding = image.toFile(file).then((info) => {
      photo.bytes = info.size;
    });
  }
  if (encoding) await encoding;
  // toFile's size is the encoder's; the file is what is uploaded.
  for (const photo of photos) photo.bytes = (await fsp.stat(photo.file)).size;
  return photos;
}

/** "YYYY:MM:DD HH:MM:SS" of a UTC instant, as EXIF writes it. */
function exifTime(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10).replaceAll('-', ':')} ${iso.slice(11, 19)}`;
}
