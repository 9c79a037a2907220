import { AppError } from '../../app-error.ts';
import type { GalleryMonths } from '../../contract/files-responses.ts';
import type { Actor, ServiceDeps } from '../common/context.ts';
import type { GalleryFilters, TimelineScope } from '../files/listing.ts';
import { parsePhotoQuery, type PhotoQuery } from './photo-query.ts';
import { thingLabelsOf } from './thing-words.ts';

/** Words a search may hold: each is one more LIKE over the gallery. */
const MAX_SEARCH_WORDS = 8;

/**
 * A search in Photos as typed (`q`), read: null when blank (the whole gallery). Shared by the
 * months and the listing, so both understand a query the same way.
 */
export function photoSearch(q: string | undefined): PhotoQuery | null {
  if (q === undefined || q.trim() === '') return null;
  const query = parsePhotoQuery(q);
  if (query.words.length > MAX_SEARCH_WORDS) {
    throw new AppError('invalid_input', `Search with at most ${MAX_SEARCH_WORDS} words besides dates.`, { field: 'q' });
  }
  // Words that name a thing ("dogs", "bike") also find the photos it was seen in.
  return { ...query, things: query.words.map(thingLabelsOf) };
}

/**
 * The photo timeline's summary: how many photos and videos each month of the account's
 * gallery holds, newest month first, so a client can draw the scrubber and lay out the whole
 * timeline before it lists a single photo (then it lists the months in view, `month=`).
 *
 * Months are those of taken_sort: the time on the camera's clock where it was taken (the
 * capture instant plus its zone, or the camera's clock when the file gives no zone), read as
 * UTC, so a photo's month is the one the camera showed. With a search (`q`), the months of
 * what it finds, counted the same way. With `family`, the months of the family timeline: what
 * others share with the account counted in, each photo once however many ways it arrives.
 */
export class GalleryService {
  constructor(private readonly deps: ServiceDeps) {}

  months(actor: Actor, q?: string, scope: TimelineScope = 'mine'): GalleryMonths {
    const gallery = this.deps.store.gallery;
    const search = photoSearch(q);
    const whose = gallery.scope(actor.userId, scope === 'family');
    const counted = new Map<string, { items: number; videos: number }>();
    // Arm by arm (the family timeline's ways in; one for the account's own), each from its newest
    // item, month by month, jumping over empty months: as many steps as months that hold
    // something, never one per photo. Arms never overlap, so their months add up.
    for (let arm = 0, arms = gallery.armCount(whose); arm < arms; arm++) {
      let before = search?.range?.before ?? Number.MAX_SAFE_INTEGER;
      for (
        let newest = gallery.newestTakenBefore(whose, arm, before, search);
        newest !== null;
        newest = gallery.newestTakenBefore(whose, arm, before, search)
      ) {
        const month = monthOf(newest);
        const range = monthRange(month);
        // A time outside the years 0-9999 has no YYYY-MM: stop rather than loop on it.
        if (!(range.from < before)) break;
        const { items, videos } = gallery.countTaken(whose, arm, range.from, range.before, search);
        const sum = counted.get(month) ?? { items: 0, videos: 0 };
        counted.set(month, { items: sum.items + items, videos: sum.videos + videos });
        before = range.from;
      }
    }
    // A month an arm reaches but shows nothing of (an album's photos in the trash) is no month.
    const items = [...counted]
      .filter(([, sum]) => sum.items > 0)
      .sort(([a], [b]) => (a < b ? 1 : -1))
      .map(([month, sum]) => ({ month, photos: sum.items - sum.videos, videos: sum.videos }));
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

/** Photos' reading of a search and a month, for the files listing's filter=gallery. */
export const galleryFilters: GalleryFilters = { search: photoSearch, month: monthRange };
