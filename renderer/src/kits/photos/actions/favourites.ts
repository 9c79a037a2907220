import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api, data } from '../../../api/client.ts';
import { nodeKeys } from '../../../api/queries.ts';
import type { Node } from '../../../api/types.ts';

/**
 * A favourite is the star of My files: one mark per person, on anything they can see, private
 * (no event tells anyone), and found again under Starred. Two marks for "I like this one"
 * would leave a family asking which is which.
 */
export function useFavourite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ nodes, on }: { nodes: readonly Node[]; on: boolean }) => {
      const failed: Node[] = [];
      const queue = [...nodes];
      const worker = async () => {
        for (let node = queue.shift(); node; node = queue.shift()) {
          const path = { params: { path: { id: node.id } } };
          try {
            await data(on ? api.POST('/nodes/{id}/star', path) : api.DELETE('/nodes/{id}/star', path));
          } catch {
            failed.push(node);
          }
        }
      };
      await Promise.all([worker(), worker(), worker(), worker()]);
      const done = nodes.filter((node) => !failed.includes(node));
      markStarred(queryClient, new Set(done.map((node) => node.id)), on);
      return { done, failed };
    },
    // Starred in My files lists them; nothing else asks again (a star sends no event).
    onSettled: () => queryClient.invalidateQueries({ queryKey: nodeKeys.all }),
  });
}

type Page = { items: Node[] };

/**
 * The mark shows at once wherever the photo is on screen (Photos, an album, a search): every
 * loaded list of nodes is given the new `starred`, page by page, without asking the server again,
 * except a list that was being fetched as the mark was made.
 */
export function markStarred(queryClient: QueryClient, ids: ReadonlySet<string>, on: boolean): void {
  if (ids.size === 0) return;
  const patchItems = (items: Node[]): Node[] => {
    let changed = false;
    const next = items.map((node) => {
      if (!ids.has(node.id) || node.starred === on) return node;
      changed = true;
      return { ...node, starred: on };
    });
    return changed ? next : items;
  };
  const patchPage = (page: Page): Page => {
    const items = patchItems(page.items);
    return items === page.items ? page : { ...page, items };
  };
  for (const query of queryClient.getQueryCache().getAll()) {
    // A list on its way was asked for before the mark was made (a live refresh after a move): its
    // answer would take the mark away again, so it is asked again (the one on its way is dropped).
    if (query.state.fetchStatus === 'fetching') void queryClient.invalidateQueries({ queryKey: query.queryKey, exact: true });
    const value = query.state.data as { pages?: unknown; items?: unknown } | undefined;
    if (!value || typeof value !== 'object') continue;
    if (Array.isArray(value.pages) && value.pages.every(isPage)) {
      const pages = (value.pages as Page[]).map(patchPage);
      if (pages.some((page, i) => page !== (value.pages as Page[])[i])) queryClient.setQueryData(query.queryKey, { ...value, pages });
    } else if (isPage(value)) {
      const page = patchPage(value);
      if (page !== value) queryClient.setQueryData(query.queryKey, page);
    }
  }
}

function isPage(value: unknown): value is Page {
  const items = (value as { items?: unknown } | null)?.items;
  return Array.isArray(items) && items.every((item) => typeof item === 'object' && item !== null && 'starred' in item && 'id' in item);
}
