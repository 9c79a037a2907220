import { plural } from '../../ui/format.ts';

/** Taken times are the camera's wall clock stored as UTC (see capture-time.ts): named in UTC, never shifted. */
// Made on first use: making a formatter loads the locale's data, which costs a phone's main thread
// tens of milliseconds; a page that never shows such a date should not pay for it while it starts.
let daysMade: Intl.DateTimeFormat | null = null;
let monthsMade: Intl.DateTimeFormat | null = null;
const days = () => (daysMade ??= new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }));
const months = () => (monthsMade ??= new Intl.DateTimeFormat(undefined, { month: 'short', year: 'numeric', timeZone: 'UTC' }));

/** A year or more apart, the days are noise: "Aug 2023 – Jan 2025". */
const LONG_RANGE_MS = 365 * 24 * 60 * 60_000;

/** When an album's photos were taken: "3 Aug 2024", "3 – 10 Aug 2024", "Aug 2023 – Jan 2025"; empty when it holds none. */
export function takenRange(first: number | null, last: number | null): string {
  if (first === null || last === null) return '';
  const from = new Date(Math.min(first, last));
  const to = new Date(Math.max(first, last));
  const format = to.getTime() - from.getTime() >= LONG_RANGE_MS ? months() : days();
  return format.formatRange(from, to);
}

/** "12 photos, 1 video", or "Empty". */
export function countWords(photos: number, videos: number): string {
  if (photos + videos === 0) return 'Empty';
  return [photos > 0 && plural(photos, 'photo'), videos > 0 && plural(videos, 'video')].filter(Boolean).join(', ');
}

/** Someone taken out of an album, with how many photos and videos they put in it. */
interface Leaving {
  name: string;
  photos_added: number;
}

function theirPhotos(count: number): string {
  return count === 1 ? 'the photo they added' : `the ${count.toLocaleString()} photos they added`;
}

/**
 * What the owner is told before taking someone out, as it happens: what they added leaves the
 * album with them, their files stay theirs, and it can be undone for a while.
 */
export function removalQuestion(person: Leaving, undoMinutes: number): string {
  const what =
    person.photos_added > 0
      ? `${person.name} and ${theirPhotos(person.photos_added)} will leave this album.`
      : `${person.name} will leave this album.`;
  const files = person.photos_added > 0 ? ` Their photos stay in ${person.name}'s own files.` : '';
  return `${what}${files} You can undo this for ${undoMinutes} minutes.`;
}

/** After it: "Dad is out of the album, with the 23 photos they added." */
export function takenOutWords(person: Leaving): string {
  return person.photos_added > 0
    ? `${person.name} is out of the album, with ${theirPhotos(person.photos_added)}.`
    : `${person.name} is out of the album.`;
}
