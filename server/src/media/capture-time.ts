import { exifOffsetMinutes } from './details.ts';

/**
 * Capture time from EXIF as milliseconds: DateTimeOriginal (else CreateDate/DateTimeDigitized),
 * plus SubSecTimeOriginal, minus OffsetTimeOriginal: the instant, whose zone details.ts keeps
 * (takenOffset) so clients show it as the camera did. A time without an offset is read as UTC,
 * the wall-clock time the camera showed, so clients display it unchanged.
 */
export function captureTime(photo: Record<string, unknown> | undefined, _image?: Record<string, unknown>, now = Date.now()): number | null {
  if (!photo) return null;
  // IFD0 DateTime is when the file was last changed (an editor writes it), not when it was taken.
  const raw = photo.DateTimeOriginal ?? photo.DateTimeDigitized;
  const base = wallClockUtc(raw);
  if (base === null) return null;
  const subsec = typeof photo?.SubSecTimeOriginal === 'string' ? photo.SubSecTimeOriginal.trim() : '';
  const ms = /^\d+$/.test(subsec) ? Math.round(Number(`0.${subsec}`) * 1000) : 0;
  const offset = (exifOffsetMinutes(photo) ?? 0) * 60_000;
  return plausibleCaptureTime(base + ms - offset, now);
}

/**
 * A capture time only counts from 1900 to the end of next year: a file claiming `9999:99:99`
 * (exif-reader rolls it over into the year 10007) would otherwise sort first in every
 * timeline for ever. Next year, not this one, for cameras whose clock runs a little ahead
 * across New Year and for time zones already in it.
 */
export function plausibleCaptureTime(ms: number | null, now = Date.now()): number | null {
  if (ms === null || !Number.isFinite(ms)) return null;
  const year = new Date(ms).getUTCFullYear();
  return year >= 1900 && year <= new Date(now).getUTCFullYear() + 1 ? ms : null;
}

/** exif-reader gives a Date built from the EXIF fields as UTC; strings are parsed the same way. */
function wallClockUtc(value: unknown): number | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.getTime();
  if (typeof value !== 'string') return null;
  const m = /^(\d{4})[:-](\d{2})[:-](\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m.map(Number) as [number, number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) return null;
  return Date.UTC(y, mo - 1, d, h, mi, s);
}

/** EXIF orientations 5 to 8 store the picture turned a quarter: width and height swap. */
export function orientedSize(width: number, height: number, orientation: number | undefined): { width: number; height: number } {
  return orientation !== undefined && orientation >= 5 && orientation <= 8 ? { width: height, height: width } : { width, height };
}
