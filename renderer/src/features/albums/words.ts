import { plural } from '../../ui/format.ts';

/** Taken times are the camera's wall clock stored as UTC (see capture-time.ts): named in UTC, never shifted. */
const days = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const months = new Intl.DateTimeFormat(undefined, { month: 'short', year: 'numeric', timeZone: 'UTC' });

/** A year or more apart, the days are noise: "Aug 2023 – Jan 2025". */
const LONG_RANGE_MS = 365 * 24 * 60 * 60_000;

/** When an album's photos were taken: "3 Aug 2024", "3 – 10 Aug 2024", "Aug 2023 – Jan 2025"; empty when it holds none. */
export function takenRange(first: number | null, last: number | null): string {
  if (first === null || last === null) return '';
  const from = new Date(Math.min(first, last));
  const to = new Date(Math.max(first, last));
  const format = to.getTime() - from.getTime() >= LONG_RANGE_MS ? months : days;
  return format.formatRange(from, to);
}

/** "12 photos, 1 video", or "Empty". */
export function countWords(photos: number, videos: number): string {
  if (photos + videos === 0) return 'Empty';
  return [photos > 0 && plural(photos, 'photo'), videos > 0 && plural(videos, 'video')].filter(Boolean).join(', ');
}
