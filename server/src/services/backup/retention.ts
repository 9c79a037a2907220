/** How many snapshots a destination keeps: the latest N whatever their day, and the newest of each of the last N days, weeks and months. */
export interface Retention {
  last: number;
  daily: number;
  weekly: number;
  monthly: number;
}

/**
 * The latest 5 besides the calendar's: a "Back up now" after a mistake (a folder deleted at
 * 10:00, backed up at 10:05) must not replace the morning's good copy, which one-per-day would
 * prune at once. Five covers a day of a few runs by hand; each costs little, since snapshots
 * share their content files (a snapshot adds its database and what changed).
 */
export const DEFAULT_RETENTION: Retention = { last: 5, daily: 7, weekly: 4, monthly: 12 };

/**
 * The snapshots retention keeps, by the PC's local calendar (as the family reads the dates): the
 * `last` newest, whatever their day; and for each of the last `daily` days that have a snapshot,
 * that day's newest; likewise per ISO week and per month. The newest snapshot is always kept, so
 * a retention can never empty a destination.
 */
export function snapshotsToKeep(snapshots: readonly { id: string; at: number }[], retention: Retention): Set<string> {
  const newestFirst = [...snapshots].sort((a, b) => b.at - a.at || b.id.localeCompare(a.id));
  const keep = new Set<string>();
  for (const snapshot of newestFirst.slice(0, Math.max(1, retention.last))) keep.add(snapshot.id);
  const buckets: [number, (at: number) => string][] = [
    [retention.daily, dayOf],
    [retention.weekly, weekOf],
    [retention.monthly, monthOf],
  ];
  for (const [count, bucketOf] of buckets) {
    const seen = new Set<string>();
    for (const snapshot of newestFirst) {
      if (seen.size >= count) break;
      const bucket = bucketOf(snapshot.at);
      if (seen.has(bucket)) continue;
      seen.add(bucket);
      keep.add(snapshot.id);
    }
  }
  return keep;
}

function dayOf(at: number): string {
  const d = new Date(at);
  return `${d.getFullYear()}-${d.getMonth() + 1}-${d.getDate()}`;
}

function monthOf(at: number): string {
  const d = new Date(at);
  return `${d.getFullYear()}-${d.getMonth() + 1}`;
}

/** ISO 8601 week: the week belongs to the year of its Thursday; week 1 holds 4 January. */
function weekOf(at: number): string {
  const thursdayOf = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate() + 3 - ((d.getDay() + 6) % 7));
  const thursday = thursdayOf(new Date(at));
  const firstThursday = thursdayOf(new Date(thursday.getFullYear(), 0, 4));
  // Rounded: a summer-time change makes a week an hour shorter or longer.
  return `${thursday.getFullYear()}-W${1 + Math.round((thursday.getTime() - firstThursday.getTime()) / (7 * 86_400_000))}`;
}
