import type { GalleryMonths } from '../../contract/files-responses.ts';
import type { Actor, ServiceDeps } from '../common/context.ts';

/**
 * The photo timeline's summary: how many photos and videos each month of the account's
 * gallery holds, newest month first, so a client can draw the scrubber and lay out the whole
 * timeline before it lists a single photo (then it lists the months in view, `month=`).
 *
 * Months are those of the taken time in UTC: a capture time is the camera's wall clock
 * stored as UTC (see capture-time.ts), so its month is the one the camera showed.
 */
export class GalleryService {
  constructor(private readonly deps: ServiceDeps) {}

  months(actor: Actor): GalleryMonths {
    const gallery = this.deps.store.gallery;
    const items: GalleryMonths['items'] = [];
    // From the newest item, month by month, jumping over empty months: as many steps as
    // months that hold something, never one per photo.
    let before = Number.MAX_SAFE_INTEGER;
    for (
      let newest = gallery.newestTakenBefore(actor.userId, before);
      newest !== null;
      newest = gallery.newestTakenBefore(actor.userId, before)
    ) {
      const month = monthOf(newest);
      const range = monthRange(month);
      // A time outside the years 0-9999 has no YYYY-MM: stop rather than loop on it.
      if (!(range.from < before)) break;
      const { items: count, videos } = gallery.countTaken(actor.userId, range.from, range.before);
      items.push({ month, photos: count - videos, videos });
      before = range.from;
    }
    return { items };
  }
}

/** `YYYY-MM` of a time, in UTC. */
export function monthOf(ms: number): string {
  const date = new Date(ms);
  return `${String(date.getUTCFullYear()).padStart(4, '0')}-${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** `YYYY-MM` as the half-open range of milliseconds the gallery's months are counted in. */
export function monthRange(month: string): { from: number; before: number } {
  const year = Number(month.slice(0, 4));
  const index = Number(month.slice(5, 7)) - 1;
  return { from: utcMonthStart(year, index), before: utcMonthStart(year, index + 1) };
}

/** Date.UTC would read the years 0-99 as 1900-1999. */
function utcMonthStart(year: number, monthIndex: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, 1);
  return date.getTime();
}
