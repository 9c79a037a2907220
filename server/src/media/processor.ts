import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import exifReader from 'exif-reader';
import sharp, { type Metadata } from 'sharp';
import { captureTime, orientedSize } from './capture-time.ts';
import { NO_DETAILS, photoDetails, type MediaDetails } from './details.ts';
import { heifImageSize } from './heif-header.ts';
import {
  failedWith,
  GRID_SIZE,
  message,
  THUMBNAIL_SIZES,
  type MediaInfo,
  type MediaLimits,
  type MediaTools,
  type ThumbnailSize,
} from './media-info.ts';
import { runTool } from './run-tool.ts';
import { renderThumbnails } from './thumbnails.ts';
import { processVideo } from './video-poster.ts';

const HEIF_TYPES = new Set(['image/heic', 'image/heif']);

/**
 * The sizes made when a file is processed; any other size is made on its first request.
 * For what sharp decodes itself only the grid size: a 12 MP JPEG then decodes at 1/4 scale
 * (shrink-on-load) instead of 1/2, and encodes once, about half the work; the full-screen
 * size is paid for only by the photos someone opens. HEIC and video go through an external
 * decoder that costs far more than one more encode, so they get both sizes at once.
 */
export function eagerSizes(mime: string): ThumbnailSize[] {
  return mime.startsWith('video/') || HEIF_TYPES.has(mime) ? [...THUMBNAIL_SIZES] : [GRID_SIZE];
}

/**
 * Reads a media file's size, capture time and details and renders its thumbnails (with no
 * `sizes`, only reads: what a server upgraded from a release that did not keep the details
 * does for the photos it already has). It never throws for a bad file: a corrupt or hostile
 * one yields the fields it could read, no thumbnail, and a reason.
 */
export async function processMedia(
  file: string,
  mime: string,
  tools: MediaTools,
  limits: MediaLimits,
  sizes: readonly ThumbnailSize[] = eagerSizes(mime),
): Promise<MediaInfo> {
  if (mime.startsWith('video/')) return processVideo(file, tools, limits, sizes);
  if (HEIF_TYPES.has(mime)) return processHeif(file, tools, limits, sizes);
  if (mime === 'image/svg+xml') return processSvg(file, limits, sizes);
  return processImage(file, limits, sizes);
}

/** SVG is text: anything bigger than this is not a picture someone drew. */
const MAX_SVG_BYTES = 8 * 1024 * 1024;

/**
 * An SVG is rendered from its bytes, never from its path: librsvg resolves the references of
 * a file (`<image href="...">`) against the file's folder, and a content file's folder holds
 * other people's content files. From bytes there is no base, so no file is ever read.
 */
async function processSvg(file: string, limits: MediaLimits, sizes: readonly ThumbnailSize[]): Promise<MediaInfo> {
  const { size } = await fs.stat(file);
  if (size > MAX_SVG_BYTES) return failedWith(`SVG too large (${size} bytes)`);
  return processImage(await fs.readFile(file), limits, sizes);
}

async function processImage(
  file: string | Buffer,
  limits: MediaLimits,
  sizes: readonly ThumbnailSize[],
  meta?: { takenAt: number | null; details: MediaDetails },
): Promise<MediaInfo> {
  const info: MediaInfo = { ...failedWith(null), takenAt: meta?.takenAt ?? null, details: meta?.details ?? NO_DETAILS };
  let metadata: Metadata;
  try {
    metadata = await sharp(file, { limitInputPixels: false }).metadata();
  } catch (error) {
    return { ...info, failure: `unreadable image: ${message(error)}` };
  }
  // A decoded HEIF (meta given) is already turned by its irot/imir boxes; its EXIF orientation
  // is only a note of that (heif-convert 1.15 copies it unchanged) and must not turn it again.
  const orientation = meta === undefined ? metadata.orientation : undefined;
  if (metadata.width && metadata.height) {
    const size = orientedSize(metadata.width, metadata.height, orientation);
    info.width = size.width;
    info.height = size.height;
  }
  if (meta === undefined && metadata.exif) Object.assign(info, exifFacts(metadata.exif));
  if (sizes.length === 0) return info;
  if ((metadata.width ?? 0) * (metadata.height ?? 0) > limits.maxPixels) {
    return { ...info, failure: `too many pixels (${metadata.width}x${metadata.height})` };
  }
  try {
    info.thumbnails = await renderThumbnails(file, limits, sizes, meta === undefined);
  } catch (error) {
    info.failure = `cannot render: ${message(error)}`;
  }
  return info;
}

/**
 * HEIC/HEIF (iPhone photos): sharp's build has no HEVC decoder, so the system's
 * heif-convert decodes to a JPEG. libheif applies the file's rotation (irot/imir), so the
 * result is upright; the EXIF orientation it may copy along is ignored, not applied twice.
 */
async function processHeif(file: string, tools: MediaTools, limits: MediaLimits, sizes: readonly ThumbnailSize[]): Promise<MediaInfo> {
  // Before any decoder sees the file: a fake HEIC of 800 MB took a worker to 2.5 GB.
  const refused = await heifRefusal(file, limits);
  if (refused) return failedWith(refused);
  const { takenAt, details } = await sharp(file)
    .metadata()
    .then(
      (m) => (m.exif ? exifFacts(m.exif) : NO_FACTS),
      () => NO_FACTS,
    );
  if (sizes.length === 0) return { ...failedWith(null), takenAt, details };
  if (!tools.heifConvert) {
    // An AV1-coded HEIF is an AVIF in all but its brand: sharp decodes it as it does AVIF (and
    // fails at once on HEVC, which it has no decoder for), while the WebAssembly fallback knows
    // only HEVC.
    const bySharp = await processImage(file, limits, sizes);
    if (bySharp.thumbnails) return bySharp;
    const decoded = await decodeHeifWasm(file).catch((error: unknown) => error as Error);
    if (decoded instanceof Error) return { ...failedWith(`HEIC: ${decoded.message}`), takenAt, details };
    return processImageBuffer(decoded, limits, sizes, { takenAt, details });
  }
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hearth-heif-'));
  try {
    const out = path.join(dir, 'decoded.jpg');
    await runTool(tools.heifConvert, ['-q', '92', '--', file, out], {
      timeoutMs: limits.timeoutMs,
      memoryBytes: limits.toolMemoryBytes,
      prlimit: tools.prlimit,
    });
    const info = await processImage(out, limits, sizes, { takenAt, details });
    if (info.takenAt === null) {
      const exif = await sharp(out)
        .metadata()
        .then(
          (m) => m.exif,
          () => undefined,
        );
      if (exif) Object.assign(info, exifFacts(exif));
    }
    return info;
  } catch (error) {
    return { ...failedWith(`HEIC decode failed: ${message(error)}`), takenAt, details };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** Why a HEIF file is not given to a decoder at all, or null when it may be. */
export async function heifRefusal(file: string, limits: MediaLimits): Promise<string | null> {
  const { size } = await fs.stat(file);
  if (size > limits.maxHeifBytes) return `HEIC file too large (${size} bytes)`;
  const image = await heifImageSize(file).catch(() => null);
  if (!image) return 'HEIC: no image size in the file (not a HEIF image)';
  if (image.width * image.height > limits.maxHeifPixels) return `too many pixels (${image.width}x${image.height})`;
  return null;
}

/** Fallback when no system decoder is installed: libheif compiled to WebAssembly. */
async function decodeHeifWasm(file: string): Promise<{ data: Buffer; width: number; height: number }> {
  const { default: decode } = await import('heic-decode');
  const image = await decode({ buffer: await fs.readFile(file) });
  return { data: Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength), width: image.width, height: image.height };
}

async function processImageBuffer(
  raw: { data: Buffer; width: number; height: number },
  limits: MediaLimits,
  sizes: readonly ThumbnailSize[],
  facts: { takenAt: number | null; details: MediaDetails },
): Promise<MediaInfo> {
  const info: MediaInfo = { ...failedWith(null), width: raw.width, height: raw.height, ...facts };
  try {
    // Straight from the decoded pixels: no PNG in between, whose encoding and decoding held two
    // more copies of the picture.
    info.thumbnails = await renderThumbnails(raw.data, limits, sizes, true, { width: raw.width, height: raw.height, channels: 4 });
  } catch (error) {
    info.failure = `cannot render: ${message(error)}`;
  }
  return info;
}

const NO_FACTS = { takenAt: null, details: NO_DETAILS };

function exifFacts(exif: Buffer): { takenAt: number | null; details: MediaDetails } {
  try {
    const parsed = exifReader(exif) as {
      Photo?: Record<string, unknown>;
      Image?: Record<string, unknown>;
      GPSInfo?: Record<string, unknown>;
    };
    const takenAt = captureTime(parsed.Photo, parsed.Image);
    const details = photoDetails(parsed);
    // A zone without a time to go with it says nothing.
    return { takenAt, details: takenAt === null ? { ...details, takenOffset: null } : details };
  } catch {
    return NO_FACTS;
  }
}
