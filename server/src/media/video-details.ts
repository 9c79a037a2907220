import { plausibleCaptureTime } from './capture-time.ts';
import { NO_DETAILS, parseOffsetMinutes, validPosition, type MediaDetails } from './details.ts';

/**
 * A video's container tags, as ffprobe's `format.tags` or the `Metadata:` lines of ffmpeg's
 * input summary give them: an iPhone writes `com.apple.quicktime.location.ISO6709` and
 * `com.apple.quicktime.creationdate` (the capture time with its zone), Android `location`,
 * every camera `creation_time` (UTC).
 */
export type ContainerTags = Record<string, string | undefined>;

export interface VideoTime {
  takenAt: number | null;
  details: MediaDetails;
}

/** Time, zone, place, camera and length of a video from its container tags and duration (seconds). */
export function videoDetails(tags: ContainerTags, durationSeconds: number | null): VideoTime {
  const zoned = zonedCreationDate(tags['com.apple.quicktime.creationdate']);
  const created = tags.creation_time ? Date.parse(tags.creation_time) : NaN;
  const takenAt = zoned?.at ?? (Number.isNaN(created) || created <= 0 ? null : plausibleCaptureTime(created));
  const position = parseIso6709(tags['com.apple.quicktime.location.ISO6709'] ?? tags.location ?? tags['location-eng']);
  return {
    takenAt,
    details: {
      ...NO_DETAILS,
      takenOffset: zoned?.offset ?? null,
      durationMs:
        durationSeconds !== null && Number.isFinite(durationSeconds) && durationSeconds > 0 ? Math.round(durationSeconds * 1000) : null,
      latitude: position?.latitude ?? null,
      longitude: position?.longitude ?? null,
      cameraMake: clean(tags['com.apple.quicktime.make'] ?? tags.make),
      cameraModel: clean(tags['com.apple.quicktime.model'] ?? tags.model),
    },
  };
}

/** "2024-08-03T19:59:12+0100": the instant, and the zone it was written in. */
function zonedCreationDate(value: string | undefined): { at: number; offset: number } | null {
  const m = value ? /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?)(Z|[+-]\d{2}:?\d{2})$/.exec(value.trim()) : null;
  if (!m) return null;
  const offset = parseOffsetMinutes(m[2]);
  if (offset === null) return null;
  const at = plausibleCaptureTime(Date.parse(`${m[1]}Z`) - offset * 60_000);
  return at === null ? null : { at, offset };
}

/**
 * ISO 6709 as phones write it: "+38.7107-009.1366+020.000/", latitude then longitude, each
 * in degrees (±DD.D, ±DDD.D), or degrees and minutes (±DDMM.M, ±DDDMM.M), or with seconds too.
 */
export function parseIso6709(value: string | undefined): { latitude: number; longitude: number } | null {
  const m = value ? /^([+-])(\d+(?:\.\d+)?)([+-])(\d+(?:\.\d+)?)/.exec(value.trim()) : null;
  if (!m) return null;
  const latitude = sexagesimal(m[2]!, 2);
  const longitude = sexagesimal(m[4]!, 3);
  if (latitude === null || longitude === null) return null;
  return validPosition(m[1] === '-' ? -latitude : latitude, m[3] === '-' ? -longitude : longitude);
}

function sexagesimal(digits: string, degreeDigits: number): number | null {
  const whole = digits.split('.')[0]!.length;
  const value = Number(digits);
  if (whole === degreeDigits) return value;
  if (whole === degreeDigits + 2) return Math.trunc(value / 100) + (value % 100) / 60;
  if (whole === degreeDigits + 4) {
    const minutes = Math.trunc(value / 100) % 100;
    return Math.trunc(value / 10_000) + minutes / 60 + (value % 100) / 3600;
  }
  return null;
}

function clean(value: string | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed && trimmed.length <= 100 ? trimmed : null;
}

/** The container's `Metadata:` lines and `Duration:` of input #0 in ffmpeg's summary (when there is no ffprobe). */
export function summaryTags(summary: string): { tags: ContainerTags; durationSeconds: number | null } {
  const input = summary.slice(Math.max(0, summary.indexOf('Input #0')));
  const tags: ContainerTags = {};
  const lines = input.split('\n');
  let inMetadata = false;
  let durationSeconds: number | null = null;
  for (const line of lines.slice(1)) {
    const duration = /^\s+Duration: (\d+):(\d{2}):(\d{2}(?:\.\d+)?)/.exec(line);
    if (duration) {
      durationSeconds = Number(duration[1]) * 3600 + Number(duration[2]) * 60 + Number(duration[3]);
      break;
    }
    if (/^\s+Metadata:\s*$/.test(line)) {
      inMetadata = true;
      continue;
    }
    const tag = inMetadata ? /^\s{4,}([^:]+?)\s*: (.*)$/.exec(line) : null;
    if (tag) tags[tag[1]!] ??= tag[2]!.trim();
  }
  return { tags, durationSeconds };
}
