import { useQuery } from '@tanstack/react-query';
import { api, data } from '../../api/client.ts';
import type { Node } from '../../api/types.ts';

export interface Month {
  month: string;
  start: number;
  end: number;
  count: number;
}

/** Under fileKeys.all (['nodes', ...]), so node events refresh the gallery too. */
export const galleryKeys = {
  months: ['nodes', 'gallery', 'months'] as const,
  month: (month: string) => ['nodes', 'gallery', 'month', month] as const,
};

/** The timeline's skeleton: months and their counts, never the photos themselves. */
export function useMonths() {
  return useQuery({ queryKey: galleryKeys.months, queryFn: async () => (await data(api.GET('/nodes/gallery/months'))).items as Month[] });
}

/** The photos of one month, fetched only while the month is on (or near) the screen. */
export function useMonthItems(month: Month, enabled: boolean) {
  return useQuery({
    queryKey: galleryKeys.month(month.month),
    enabled,
    staleTime: 60_000,
    queryFn: async () => {
      const items: Node[] = [];
      let cursor: string | undefined;
      do {
        const page = await data(
          api.GET('/nodes', {
            params: { query: { filter: 'gallery', taken_from: month.start, taken_to: month.end, limit: 1000, ...(cursor ? { cursor } : {}) } },
          }),
        );
        items.push(...page.items);
        cursor = page.next_cursor ?? undefined;
      } while (cursor);
      return items;
    },
  });
}
