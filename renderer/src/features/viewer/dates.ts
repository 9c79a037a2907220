import type { Node } from '../../api/types.ts';

/**
 * A capture time is the camera's wall clock, stored as if it were UTC (the server's rule), so
 * it is shown in UTC: the hour the camera showed, wherever the phone looking at it is. An
 * upload time is a real instant, shown in this device's time zone.
 */
const takenDate = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const takenFull = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'short', timeZone: 'UTC' });
const localDate = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric' });
const localFull = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'short' });

/** "3 May 2024" of when it was taken (or uploaded, when the file does not say). */
export function describeTaken(node: Pick<Node, 'taken_at' | 'created_at'>): string {
  return node.taken_at !== undefined ? takenDate.format(node.taken_at) : localDate.format(node.created_at);
}

export function formatTakenFull(ms: number): string {
  return takenFull.format(ms);
}

export function formatLocalFull(ms: number): string {
  return localFull.format(ms);
}
