/**
 * When a photo was taken, as the people in it lived it: on the clock where it was taken, with
 * that zone said ("19:59 GMT+1"), whichever zone the phone looking at it is in now.
 *
 * The server gives `taken_at` (an instant) and, when the file said, `taken_offset` (minutes east
 * of UTC). The clock there is the instant moved by the offset, then read as UTC. Without an
 * offset, `taken_at` is already the camera's clock read as UTC: shown in UTC, with no zone,
 * since none is known. An upload time is a real instant, shown in this device's zone.
 */
export interface TakenFields {
  taken_at?: number;
  taken_offset?: number;
  created_at: number;
}

export interface PlaceFields {
  place?: { town?: string; country_code?: string };
}

type Style = 'tile' | 'title' | 'time' | 'full' | 'local' | 'localFull';

const OPTIONS: Record<Style, Intl.DateTimeFormatOptions> = {
  tile: { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' },
  title: { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' },
  time: { timeStyle: 'short', timeZone: 'UTC' },
  full: { dateStyle: 'full', timeStyle: 'short', timeZone: 'UTC' },
  local: { day: 'numeric', month: 'short', year: 'numeric' },
  localFull: { dateStyle: 'full', timeStyle: 'short' },
};

const formats = new Map<string, Intl.DateTimeFormat>();
/** One formatter per style and locale (`undefined`: this device's language). */
function formatterOf(style: Style, locale: string | undefined): Intl.DateTimeFormat {
  const key = `${style}:${locale ?? ''}`;
  let formatter = formats.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale, OPTIONS[style]);
    formats.set(key, formatter);
  }
  return formatter;
}

function format(style: Style, locale: string | undefined, ms: number): string {
  return formatterOf(style, locale).format(ms);
}

/** The clock where it was taken, read as UTC; null when the file has no capture time. */
function clockThere(node: TakenFields): number | null {
  return node.taken_at === undefined ? null : node.taken_at + (node.taken_offset ?? 0) * 60_000;
}

/** "GMT+1", "GMT-3:30", "GMT": the zone as phones and travel sites say it. */
export function zoneLabel(offsetMinutes: number): string {
  if (offsetMinutes === 0) return 'GMT';
  const sign = offsetMinutes > 0 ? '+' : '-';
  const abs = Math.abs(offsetMinutes);
  const minutes = abs % 60;
  return `GMT${sign}${Math.floor(abs / 60)}${minutes ? `:${String(minutes).padStart(2, '0')}` : ''}`;
}

/** "3 Aug 2024": the day it was taken there (or the upload day, when the file does not say). */
export function describeTaken(node: TakenFields, locale?: string): string {
  const there = clockThere(node);
  return there === null ? format('local', locale, node.created_at) : format('tile', locale, there);
}

/** Where, in words: the town, else the country, in this device's language. */
export function placeName(node: PlaceFields, locale?: string): string | null {
  if (node.place?.town) return node.place.town;
  const code = node.place?.country_code;
  if (!code) return null;
  try {
    return new Intl.DisplayNames(locale, { type: 'region' }).of(code) ?? null;
  } catch {
    return null;
  }
}

/** The viewer's title: "Saturday 3 August 2024, Lisbon"; null for a file that does not say when it was taken. */
export function storyTitle(node: TakenFields & PlaceFields, locale?: string): string | null {
  const there = clockThere(node);
  if (there === null) return null;
  const place = placeName(node, locale);
  return `${dayTitle(there, locale)}${place ? `, ${place}` : ''}`;
}

/**
 * "Saturday 3 August 2024". English puts a comma after the weekday ("Saturday, 3 August
 * 2024"), which before the place's own comma reads as a list: in English the weekday runs on.
 * Other languages keep their own punctuation.
 */
function dayTitle(ms: number, locale: string | undefined): string {
  const formatter = formatterOf('title', locale);
  if (!formatter.resolvedOptions().locale.startsWith('en')) return formatter.format(ms);
  const parts = formatter.formatToParts(ms);
  return parts.map((part, i) => (part.type === 'literal' && parts[i - 1]?.type === 'weekday' ? ' ' : part.value)).join('');
}

/** "19:59 GMT+1" (or "7:59 PM GMT+1", as this device writes hours); "19:59" when the zone is unknown. */
export function takenTime(node: TakenFields, locale?: string): string | null {
  const there = clockThere(node);
  if (there === null) return null;
  const time = format('time', locale, there);
  return node.taken_offset === undefined ? time : `${time} ${zoneLabel(node.taken_offset)}`;
}

/** "Saturday 3 August 2024 at 19:59 GMT+1": the Info panel's line. */
export function formatTakenFull(node: TakenFields, locale?: string): string | null {
  const there = clockThere(node);
  if (there === null) return null;
  const full = format('full', locale, there);
  return node.taken_offset === undefined ? full : `${full} ${zoneLabel(node.taken_offset)}`;
}

export function formatLocalFull(ms: number, locale?: string): string {
  return format('localFull', locale, ms);
}

/** A video's length as players show it: "0:42", "12:05", "1:02:03". */
export function formatLength(ms: number): string {
  // A clip under half a second still lasts something: "0:01", never "0:00".
  const total = ms > 0 ? Math.max(1, Math.round(ms / 1000)) : 0;
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}
