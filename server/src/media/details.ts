/**
 * What a photo or video says about itself beyond its pixels: where it was taken, with what,
 * how, in which time zone and for how long. Read in the media workers from EXIF (photos) and
 * from ffprobe's or ffmpeg's report (videos); every field is null when the file does not say,
 * or says something no camera could mean.
 */
export interface MediaDetails {
  /** Minutes east of UTC of the capture time (+60 for 19:59 +01:00); null when the file gives no zone. */
  takenOffset: number | null;
  /** A video's length. */
  durationMs: number | null;
  latitude: number | null;
  longitude: number | null;
  cameraMake: string | null;
  cameraModel: string | null;
  lens: string | null;
  fNumber: number | null;
  /** Seconds (1/120 s is 0.008333). */
  exposureTime: number | null;
  iso: number | null;
  /** Millimetres, as the lens says (not the 35 mm equivalent). */
  focalLength: number | null;
}

export const NO_DETAILS: MediaDetails = {
  takenOffset: null,
  durationMs: null,
  latitude: null,
  longitude: null,
  cameraMake: null,
  cameraModel: null,
  lens: null,
  fNumber: null,
  exposureTime: null,
  iso: null,
  focalLength: null,
};

type Tags = Record<string, unknown> | undefined;

/** The details of a photo from exif-reader's parse of its EXIF block (Image = IFD0, Photo = the Exif IFD). */
export function photoDetails(exif: { Image?: Tags; Photo?: Tags; GPSInfo?: Tags }): MediaDetails {
  const { Image: image, Photo: photo, GPSInfo: gps } = exif;
  const position = gpsPosition(gps);
  return {
    ...NO_DETAILS,
    takenOffset: exifOffsetMinutes(photo),
    latitude: position?.latitude ?? null,
    longitude: position?.longitude ?? null,
    cameraMake: text(image?.Make),
    cameraModel: text(image?.Model),
    lens: text(photo?.LensModel),
    fNumber: positive(photo?.FNumber, 0.5, 128),
    exposureTime: positive(photo?.ExposureTime, 1e-6, 3600),
    iso: integer(photo?.ISOSpeedRatings ?? photo?.PhotographicSensitivity, 1, 10_000_000),
    focalLength: positive(photo?.FocalLength, 0.5, 10_000),
  };
}

/** The zone of the capture time, as capture-time.ts subtracts it: the two must never disagree. */
export function exifOffsetMinutes(photo: Tags): number | null {
  return parseOffsetMinutes(photo?.OffsetTimeOriginal ?? photo?.OffsetTime);
}

/**
 * "+01:00", "-0330", "Z": minutes east of UTC, or null. Real zones lie between -12:00 and
 * +14:00; anything past that is a broken tag, not a place.
 */
export function parseOffsetMinutes(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  if (trimmed === 'Z') return 0;
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(trimmed);
  if (!m) return null;
  const minutes = (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
  return Number(m[3]) < 60 && minutes >= -12 * 60 && minutes <= 14 * 60 ? minutes : null;
}

function gpsPosition(gps: Tags): { latitude: number; longitude: number } | null {
  if (!gps) return null;
  const latitude = degrees(gps.GPSLatitude, gps.GPSLatitudeRef, 'S');
  const longitude = degrees(gps.GPSLongitude, gps.GPSLongitudeRef, 'W');
  return validPosition(latitude, longitude);
}

/**
 * A position only counts inside the globe, and never as exactly 0,0: a phone without a fix
 * writes zeros, and "Null Island" in the Gulf of Guinea is no family's holiday.
 */
export function validPosition(latitude: number | null, longitude: number | null): { latitude: number; longitude: number } | null {
  if (latitude === null || longitude === null || !Number.isFinite(latitude) || !Number.isFinite(longitude)) return null;
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180 || (latitude === 0 && longitude === 0)) return null;
  return { latitude: round6(latitude), longitude: round6(longitude) };
}

/** EXIF writes degrees, minutes and seconds as three rationals, the hemisphere apart. */
function degrees(value: unknown, ref: unknown, negative: 'S' | 'W'): number | null {
  if (!Array.isArray(value) || value.length === 0 || !value.every((v) => typeof v === 'number' && Number.isFinite(v))) return null;
  const [d = 0, m = 0, s = 0] = value as number[];
  const abs = d + m / 60 + s / 3600;
  return typeof ref === 'string' && ref.trim().toUpperCase() === negative ? -abs : abs;
}

/** About 11 cm: more digits are noise, and fewer rows differ in what nobody can see. */
function round6(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/** Text as cameras write it: padded with NULs or spaces, sometimes empty. */
function text(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  // eslint-disable-next-line no-control-regex
  const clean = value.replace(/\u0000/g, '').trim();
  return clean.length > 0 && clean.length <= 100 ? clean : null;
}

function positive(value: unknown, min: number, max: number): number | null {
  const n = Array.isArray(value) ? value[0] : value;
  return typeof n === 'number' && Number.isFinite(n) && n >= min && n <= max ? n : null;
}

function integer(value: unknown, min: number, max: number): number | null {
  const n = positive(value, min, max);
  return n === null ? null : Math.round(n);
}
