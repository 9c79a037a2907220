import type { GalleryMonth } from './queries.ts';

/** A row of the timeline: a month's heading, or one line of its tiles. */
export type TimelineRow =
  | { kind: 'header'; month: string; count: number; photos: number; videos: number }
  | { kind: 'tiles'; month: string; /** index of the first tile in its month */ start: number; count: number; monthCount: number };

export interface Timeline {
  rows: TimelineRow[];
  /** Row index of each month's heading, in the months' order (newest first). */
  headerRows: number[];
  months: GalleryMonth[];
  total: number;
}

export const HEADER_HEIGHT = 56;

/** Lays out every month from the counts alone: no item needs to be loaded to know where it goes. */
export function buildTimeline(months: readonly GalleryMonth[], columns: number): Timeline {
  const rows: TimelineRow[] = [];
  const headerRows: number[] = [];
  let total = 0;
  for (const m of months) {
    const count = m.photos + m.videos;
    total += count;
    headerRows.push(rows.length);
    rows.push({ kind: 'header', month: m.month, count, photos: m.photos, videos: m.videos });
    for (let start = 0; start < count; start += columns) {
      rows.push({ kind: 'tiles', month: m.month, start, count: Math.min(columns, count - start), monthCount: count });
    }
  }
  return { rows, headerRows, months: [...months], total };
}

/** Which month a row belongs to, by the heading at or above it. */
export function monthIndexOfRow(timeline: Timeline, row: number): number {
  const heads = timeline.headerRows;
  let lo = 0;
  let hi = heads.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (heads[mid]! <= row) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

// Named by the photo kit, which the Private page groups its photos with too.
export { monthLabel } from '../../kits/photos/index.ts';
