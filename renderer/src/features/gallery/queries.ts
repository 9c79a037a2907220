import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, data } from '../../api/client.ts';
import { queryClient } from '../../api/queryClient.ts';
import type { Answer, Node } from '../../api/types.ts';
import { timelineRoot } from '../../kits/photos/index.ts';
import { timelineScope, type TimelineScope } from './scope.ts';

export type GalleryMonth = Answer<'/nodes/gallery/months', 'get'>['items'][number];

/**
 * The timeline's server state: the months with their counts (enough to lay out and scrub the
 * whole gallery), then the items of each month in view, page by page. Not under `fileKeys`:
 * the gallery follows node events itself (see useLiveGallery), month by month.
 *
 * A search (`q`, what was typed into Photos' search box) is the same timeline of fewer photos:
 * the same months and items under keys of its own, so the whole gallery stays loaded beside it.
 * '' is no search. Whose photos (`scope`: the account's own, or everyone's) is the device's
 * choice (scope.ts), read when a key is made unless given, and part of every key: the two
 * timelines never mix, and switching back finds the other still loaded.
 */
export const galleryKeys = {
  all: timelineRoot,
  months: (q = '', scope: TimelineScope = timelineScope()) =>
    q ? (['gallery', 'months', scope, { q }] as const) : (['gallery', 'months', scope] as const),
  month: (month: string, q = '', scope: TimelineScope = timelineScope()) =>
    q ? (['gallery', 'month', month, scope, { q }] as const) : (['gallery', 'month', month, scope] as const),
  /** Everything of the family timeline: what others' changes refresh. */
  ofFamily: (key: readonly unknown[]) => key[0] === 'gallery' && key.includes('family'),
  /** Every search's timeline (a key ending in `{ q }`): what a newly named face can change. */
  ofSearch: (key: readonly unknown[]) => key[0] === 'gallery' && typeof key.at(-1) === 'object',
};

/** Items per request: a first screen needs fewer than this, and a month of 2,000 takes four. */
export const MONTH_PAGE = 500;

/**
 * The months of the gallery, or of what a search finds. A search typed on is asked again at
 * every pause; the answer to an older one is cancelled (its request aborted through `signal`)
 * as soon as nothing shows it any more.
 */
export function useGalleryMonths(q = '', scope: TimelineScope = timelineScope()) {
  return useQuery({
    queryKey: galleryKeys.months(q, scope),
    queryFn: async ({ signal }) => {
      const months = (await data(api.GET('/nodes/gallery/months', { params: { query: { scope, ...(q ? { q } : {}) } }, signal }))).items;
      askForFirstScreen(months, q, scope);
      return months;
    },
  });
}

/** About a first screen's photos on a large phone or a laptop, and its months when they are sparse. */
const FIRST_SCREEN = 60;
const FIRST_SCREEN_MONTHS = 4;

/**
 * The newest months' items are asked for as soon as the months are known, not once the timeline
 * has drawn their rows: the first photos show one round trip and one render sooner. The rows
 * then find the same queries under way.
 */
function askForFirstScreen(months: readonly GalleryMonth[], q: string, scope: TimelineScope): void {
  let covered = 0;
  for (const month of months.slice(0, FIRST_SCREEN_MONTHS)) {
    if (covered >= FIRST_SCREEN) return;
    covered += month.photos + month.videos;
    void queryClient.prefetchInfiniteQuery(monthItemsQuery(month.month, q, scope));
  }
}

export function monthItemsQuery(month: string, q = '', scope: TimelineScope = timelineScope()) {
  return {
    queryKey: galleryKeys.month(month, q, scope),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }: { pageParam: string | undefined; signal: AbortSignal }) =>
      data(
        api.GET('/nodes', {
          params: {
            query: {
              filter: 'gallery',
              scope,
              month,
              sort: 'taken',
              order: 'desc',
              limit: MONTH_PAGE,
              ...(q ? { q } : {}),
              ...(pageParam ? { cursor: pageParam } : {}),
            },
          },
          signal,
        }),
      ),
    getNextPageParam: (last: { next_cursor: string | null }) => last.next_cursor ?? undefined,
  };
}

/**
 * The items of one month, loading further pages until `needed` items are there (or the month
 * ends). Many rows of one month share the one query; `cancelRefetch: false` makes their
 * simultaneous asks one request.
 */
export function useMonthItems(month: string, needed: number, q = ''): Node[] | undefined {
  const query = useInfiniteQuery(monthItemsQuery(month, q));
  const loaded = query.data?.pages.reduce((sum, page) => sum + page.items.length, 0) ?? 0;
  const { hasNextPage, isFetching, fetchNextPage } = query;
  useEffect(() => {
    if (query.isSuccess && loaded < needed && hasNextPage && !isFetching) void fetchNextPage({ cancelRefetch: false });
  }, [query.isSuccess, loaded, needed, hasNextPage, isFetching, fetchNextPage]);
  return query.data ? flatItems(query.data.pages) : undefined;
}

const flattened = new WeakMap<object, Node[]>();
/** One flat array per loaded set of pages, kept so that rows comparing by identity do not re-render. */
export function flatItems(pages: readonly { items: Node[] }[]): Node[] {
  let flat = flattened.get(pages);
  if (!flat) {
    flat = pages.flatMap((page) => page.items);
    flattened.set(pages, flat);
  }
  return flat;
}
