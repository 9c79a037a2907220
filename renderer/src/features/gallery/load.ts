import { InfiniteQueryObserver, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import type { Node, NodePage } from '../../api/types.ts';
import { flatItems, galleryKeys, monthItemsQuery } from './queries.ts';

type MonthData = InfiniteData<NodePage, unknown>;

/** The loaded items of a month of the gallery or of a search (empty when none is loaded). */
export function loadedItems(queryClient: QueryClient, month: string, q = ''): Node[] {
  const value = queryClient.getQueryData<MonthData>(galleryKeys.month(month, q));
  return value ? flatItems(value.pages) : [];
}

/** A photo among the loaded months (of the gallery or of any search), if it is there. */
export function findLoaded(queryClient: QueryClient, id: string): Node | null {
  for (const [, value] of queryClient.getQueriesData<MonthData>({ queryKey: ['gallery', 'month'] })) {
    for (const page of value?.pages ?? []) {
      const found = page.items.find((node) => node.id === id);
      if (found) return found;
    }
  }
  return null;
}

/** Loads a month until it holds `needed` items or ends, through the same query the timeline uses. */
export async function loadMonthItems(queryClient: QueryClient, month: string, needed: number, q = ''): Promise<Node[]> {
  const options = monthItemsQuery(month, q);
  let value: MonthData = await queryClient.fetchInfiniteQuery(options);
  const observer = new InfiniteQueryObserver(queryClient, options);
  while (flatItems(value.pages).length < needed && value.pages.at(-1)?.next_cursor) {
    const result = await observer.fetchNextPage({ cancelRefetch: false });
    if (!result.data || result.isError) break;
    value = result.data as MonthData;
  }
  return flatItems(value.pages);
}
