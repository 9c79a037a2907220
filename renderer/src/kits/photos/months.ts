import type { Node } from '../../api/types.ts';
import { monthOfNode } from './selection.ts';
import { describeTaken } from '../viewer/index.ts';

// Made on first use: making a formatter loads the locale's data, which costs a phone's main thread
// tens of milliseconds; a page that never shows such a date should not pay for it while it starts.
let monthNamesMade: Intl.DateTimeFormat | null = null;
const monthNames = () => (monthNamesMade ??= new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' }));
let shortMonthNamesMade: Intl.DateTimeFormat | null = null;
const shortMonthNames = () =>
  (shortMonthNamesMade ??= new Intl.DateTimeFormat(undefined, { month: 'short', year: 'numeric', timeZone: 'UTC' }));

/**
 * Makes the formatters a timeline draws with (its months, its tiles' dates), in a task of its
 * own while the first photos are on their way: made inside the timeline's first render they
 * would add the locale's loading to the longest task of a phone's start.
 */
export function warmPhotoDates(): void {
  setTimeout(() => {
    monthLabel('2000-01');
    monthLabel('2000-01', true);
    describeTaken({ taken_at: 0, created_at: 0 });
  });
}

/** "May 2024" for "2024-05" (months are counted in UTC, so they are named in UTC). */
export function monthLabel(month: string, short = false): string {
  const date = new Date(0);
  date.setUTCFullYear(Number(month.slice(0, 4)), Number(month.slice(5, 7)) - 1, 15);
  return (short ? shortMonthNames() : monthNames()).format(date);
}

export interface MonthGroup {
  month: string;
  items: Node[];
  photos: number;
  videos: number;
}

/**
 * Photos and videos by the month the timeline puts them in (monthOfNode), newest month first and,
 * within a month, newest first: a short list grouped as the timeline groups its counted months.
 */
export function groupByMonth(nodes: readonly Node[]): MonthGroup[] {
  const byMonth = new Map<string, Node[]>();
  for (const node of nodes) {
    const month = monthOfNode(node);
    const list = byMonth.get(month);
    if (list) list.push(node);
    else byMonth.set(month, [node]);
  }
  const when = (node: Node) => node.taken_at ?? node.created_at;
  return [...byMonth.entries()]
    .sort(([a], [b]) => (a < b ? 1 : a > b ? -1 : 0))
    .map(([month, items]) => {
      const sorted = [...items].sort((a, b) => when(b) - when(a));
      const videos = sorted.filter((node) => node.mime_type?.startsWith('video/')).length;
      return { month, items: sorted, photos: sorted.length - videos, videos };
    });
}

/** "3 photos, 1 video" for a month's heading. */
export function monthCountWords(group: Pick<MonthGroup, 'photos' | 'videos'>): string {
  const words = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
  return [group.photos > 0 && words(group.photos, 'photo'), group.videos > 0 && words(group.videos, 'video')].filter(Boolean).join(', ');
}
