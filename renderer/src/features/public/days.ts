import { placeName } from '../../kits/viewer/index.ts';

/** What grouping by day reads of a photo: when it was taken (else uploaded), and where. */
export interface DayFields {
  taken_at?: number;
  taken_offset?: number;
  created_at: number;
  place?: { town?: string; country_code?: string };
}

/** One day of a link's photos: its heading, the places its photos were taken, and the photos in the order given. */
export interface PhotoDay<T> {
  key: string;
  title: string;
  places: string[];
  items: T[];
}

const titles = new Map<string, Intl.DateTimeFormat>();
function titleFormat(locale: string | undefined, utc: boolean): Intl.DateTimeFormat {
  const key = `${locale ?? ''}:${utc}`;
  let format = titles.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      ...(utc && { timeZone: 'UTC' }),
    });
    titles.set(key, format);
  }
  return format;
}

/**
 * The day a photo belongs to, as the people in it lived it: the day on the clock where it was
 * taken (taken_at moved by its offset, read as UTC, as the viewer's dates do), else the day it
 * was uploaded, on this device's clock.
 */
function dayOf(node: DayFields, locale: string | undefined): { key: string; title: string } {
  if (node.taken_at !== undefined) {
    const there = node.taken_at + (node.taken_offset ?? 0) * 60_000;
    return { key: new Date(there).toISOString().slice(0, 10), title: titleFormat(locale, true).format(there) };
  }
  const local = new Date(node.created_at);
  const key = `${local.getFullYear()}-${String(local.getMonth() + 1).padStart(2, '0')}-${String(local.getDate()).padStart(2, '0')}`;
  return { key, title: titleFormat(locale, false).format(local) };
}

/** A link's photos by day, each day once (in the order its first photo comes), with the places of its photos. */
export function groupByDay<T extends DayFields>(items: readonly T[], locale?: string): PhotoDay<T>[] {
  const days = new Map<string, PhotoDay<T>>();
  for (const item of items) {
    const { key, title } = dayOf(item, locale);
    let day = days.get(key);
    if (!day) {
      day = { key, title, places: [], items: [] };
      days.set(key, day);
    }
    day.items.push(item);
    const place = placeName(item, locale);
    if (place && !day.places.includes(place)) day.places.push(place);
  }
  return [...days.values()];
}
