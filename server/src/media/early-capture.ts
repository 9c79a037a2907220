import fs from 'node:fs/promises';
import exifReader from 'exif-reader';
import { captureTime, plausibleCaptureTime } from './capture-time.ts';
import { exifOffsetMinutes } from './details.ts';
import { heifExif, pngExif, withFile } from './early-capture-still.ts';

/** When a photo or video was taken, as far as is known before its processing. */
export interface CaptureMoment {
  takenAt: number;
  /** Minutes east of UTC; null when unknown (takenAt is then shown as it is, like a camera's clock). */
  takenOffset: number | null;
}

/** A JPEG's EXIF block is one APP1 segment of at most 64 KB, near the start. */
const JPEG_HEAD_BYTES = 192 * 1024;
/** The kinds of HEIF a phone or camera sends: an iPhone's HEIC, and AVIF, on the same boxes. */
const HEIF_TYPES = new Set(['image/heic', 'image/heif', 'image/heic-sequence', 'image/heif-sequence', 'image/avif']);
/** Seconds from 1904-01-01 (QuickTime's epoch) to 1970-01-01. */
const QUICKTIME_EPOCH_S = 2_082_844_800;

/**
 * The capture time read from a file's first bytes as its upload completes, so a photo is in its
 * month from the moment it appears rather than under today until the media workers reach it
 * (a phone's backup queues hundreds). Only what plain JavaScript reads without decoding: the
 * EXIF of a JPEG, a PNG (its eXIf chunk) or a HEIC/HEIF/AVIF (its Exif item), an MP4 or MOV
 * container's creation time. The workers read the file in full later and
 * their reading replaces this one. Never throws: a file it cannot read yields null.
 */
export async function earlyCaptureTime(file: string, mime: string, now = Date.now()): Promise<CaptureMoment | null> {
  try {
    if (mime === 'image/jpeg') return jpegCapture(await readAt(file, 0, JPEG_HEAD_BYTES), now);
    if (mime === 'video/mp4' || mime === 'video/quicktime') return await movieCapture(file, now);
    if (mime === 'image/png') return exifCapture(await withFile(file, pngExif), now);
    if (HEIF_TYPES.has(mime)) return exifCapture(await withFile(file, heifExif), now);
  } catch {
    return null;
  }
  return null;
}

/** Walks the JPEG's segments to its EXIF (APP1 "Exif\0\0"), stopping at the picture data. */
export function jpegCapture(head: Buffer, now = Date.now()): CaptureMoment | null {
  if (head.length < 4 || head[0] !== 0xff || head[1] !== 0xd8) return null;
  let at = 2;
  while (at + 4 <= head.length && head[at] === 0xff) {
    const marker = head[at + 1]!;
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01 || marker === 0xff) {
      at += marker === 0xff ? 1 : 2;
      continue;
    }
    if (marker === 0xda || marker === 0xd9) return null;
    const length = head.readUInt16BE(at + 2);
    if (marker === 0xe1 && head.toString('latin1', at + 4, at + 10) === 'Exif\0\0') {
      if (at + 2 + length > head.length) return null;
      return exifCapture(head.subarray(at + 4, at + 2 + length), now);
    }
    at += 2 + length;
  }
  return null;
}

/** The capture time in an EXIF block (with or without its "Exif\0\0" prefix); null when it names none. */
export function exifCapture(exif: Buffer | null, now = Date.now()): CaptureMoment | null {
  if (!exif) return null;
  const parsed = exifReader(exif) as { Photo?: Record<string, unknown> };
  const takenAt = captureTime(parsed.Photo, undefined, now);
  return takenAt === null ? null : { takenAt, takenOffset: exifOffsetMinutes(parsed.Photo) };
}

/**
 * The movie header's creation time (UTC, as ffprobe's creation_time): the top-level boxes are
 * walked by their headers alone, since phones often write the `moov` box after the media data.
 */
async function movieCapture(file: string, now: number): Promise<CaptureMoment | null> {
  const { size } = await fs.stat(file);
  let offset = 0;
  for (let boxes = 0; boxes < 32 && offset + 8 <= size; boxes += 1) {
    const header = await readAt(file, offset, 16);
    let boxSize = header.readUInt32BE(0);
    const type = header.toString('latin1', 4, 8);
    if (boxSize === 1) boxSize = Number(header.readBigUInt64BE(8));
    else if (boxSize === 0) boxSize = size - offset;
    if (boxSize < 8) return null;
    if (type === 'moov') return movieHeaderTime(await readAt(file, offset, Math.min(boxSize, 4096)), now);
    offset += boxSize;
  }
  return null;
}

function movieHeaderTime(moov: Buffer, now: number): CaptureMoment | null {
  const at = moov.indexOf('mvhd', 0, 'latin1');
  if (at < 0 || at + 20 > moov.length) return null;
  const seconds = moov[at + 4] === 1 ? Number(moov.readBigUInt64BE(at + 8)) : moov.readUInt32BE(at + 8);
  // Zero is a camera that never set its clock, not 1904.
  if (seconds === 0) return null;
  const takenAt = plausibleCaptureTime((seconds - QUICKTIME_EPOCH_S) * 1000, now);
  return takenAt === null ? null : { takenAt, takenOffset: null };
}

async function readAt(file: string, position: number, bytes: number): Promise<Buffer> {
  const handle = await fs.open(file, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, position);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * The capture time the uploading device gave in the upload's metadata (`taken_at`, ms, and
 * `taken_offset`, minutes east of UTC): a phone's file date, for what the server cannot read
 * early (a photo without EXIF, other videos). Kept only when plausible.
 */
export function hintedCaptureTime(metadata: Record<string, string | null>, now = Date.now()): CaptureMoment | null {
  const raw = metadata.taken_at;
  if (!raw || !/^\d{1,15}$/.test(raw)) return null;
  const takenAt = plausibleCaptureTime(Number(raw), now);
  if (takenAt === null) return null;
  const offsetRaw = metadata.taken_offset;
  const offset = offsetRaw && /^-?\d{1,4}$/.test(offsetRaw) ? Number(offsetRaw) : null;
  return { takenAt, takenOffset: offset !== null && offset >= -12 * 60 && offset <= 14 * 60 ? offset : null };
}
