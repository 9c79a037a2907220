import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api, data } from '../../api/client.ts';
import type { Node } from '../../api/types.ts';

export type SortKey = 'name' | 'updated' | 'size' | 'taken';
export type SortOrder = 'asc' | 'desc';

export interface ListParams {
  parentId: string | null;
  sort: SortKey;
  order: SortOrder;
}

/** One key factory for everything about nodes: invalidating `fileKeys.all` refreshes every view. */
export const fileKeys = {
  all: ['nodes'] as const,
  list: (params: ListParams) => ['nodes', 'list', params] as const,
  node: (id: string) => ['nodes', 'one', id] as const,
  path: (id: string) => ['nodes', 'path', id] as const,
};

const PAGE = 200;

export function useFolderListing(params: ListParams) {
  return useInfiniteQuery({
    queryKey: fileKeys.list(params),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      data(
        api.GET('/nodes', {
          params: {
            query: { parent_id: params.parentId ?? 'root', sort: params.sort, order: params.order, limit: PAGE, ...(pageParam ? { cursor: pageParam } : {}) },
          },
        }),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}

export function useNode(id: string | null) {
  return useQuery({
    queryKey: fileKeys.node(id ?? ''),
    enabled: id !== null,
    queryFn: () => data(api.GET('/nodes/{id}', { params: { path: { id: id! } } })),
  });
}

export function useBreadcrumb(id: string | null) {
  return useQuery({
    queryKey: fileKeys.path(id ?? ''),
    enabled: id !== null,
    queryFn: async () => (await data(api.GET('/nodes/{id}/path', { params: { path: { id: id! } } }))).items as Node[],
  });
}
