import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api, data } from '../../api/client.ts';
import { nodeGrantsQuery, nodeKeys, nodePathQuery } from '../../api/queries.ts';
import type { Node } from '../../api/types.ts';

export type SortKey = 'name' | 'updated' | 'size' | 'taken';
export type SortOrder = 'asc' | 'desc';

/** What a list shows: a folder (null: the top level, blended with what others shared) or a flat view. */
export type View =
  | { kind: 'folder'; id: string | null }
  | { kind: 'starred' }
  | { kind: 'recent' }
  | { kind: 'shared' }
  | { kind: 'trash' }
  | { kind: 'search'; q: string };

export interface Sorting {
  sort: SortKey;
  order: SortOrder;
}

/** The file views' own keys, under the app's `nodeKeys.all` (api/queries.ts): a node event refreshes them all. */
export const fileKeys = {
  view: (view: View, sorting: Sorting | null) => [...nodeKeys.all, 'view', view, sorting] as const,
  versions: (id: string) => [...nodeKeys.all, 'versions', id] as const,
};

const PAGE = 200;

interface Page {
  items: Node[];
  next_cursor: string | null;
  retention_days?: number;
}

function fetchPage(view: View, sorting: Sorting, cursor: string | undefined): Promise<Page> {
  const paging = { limit: PAGE, ...(cursor ? { cursor } : {}) };
  if (view.kind === 'trash') return data(api.GET('/trash', { params: { query: paging } }));
  const query =
    view.kind === 'folder'
      ? { parent_id: view.id ?? 'root', ...sorting }
      : view.kind === 'search'
        ? { query: view.q, ...sorting }
        : // Recent is ordered by the server (last changed first).
          view.kind === 'recent'
          ? { filter: 'recent' as const }
          : { filter: view.kind, ...sorting };
  return data(api.GET('/nodes', { params: { query: { ...query, ...paging } } }));
}

/** A view's items, page by page with the server's cursors. */
export function useListing(view: View, sorting: Sorting) {
  return useInfiniteQuery({
    queryKey: fileKeys.view(view, view.kind === 'recent' || view.kind === 'trash' ? null : sorting),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => fetchPage(view, sorting, pageParam),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    enabled: view.kind !== 'search' || view.q.trim() !== '',
  });
}

export function useBreadcrumb(id: string | null) {
  return useQuery({ ...nodePathQuery(id ?? ''), enabled: id !== null });
}

export function useVersions(id: string) {
  return useQuery({
    queryKey: fileKeys.versions(id),
    queryFn: async () => (await data(api.GET('/nodes/{id}/versions', { params: { path: { id } } }))).items,
  });
}

/** Who else can see a node: only its owner may ask, so a node shared with you asks nothing. */
export function useNodeGrants(node: Node) {
  return useQuery({ ...nodeGrantsQuery(node.id), enabled: !node.shared });
}
