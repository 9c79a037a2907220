import { queryOptions } from '@tanstack/react-query';
import { api, data } from '../../api/client.ts';

/** Private's own server state: whether this session has it open, and what is in it. */
export const privateKeys = {
  all: ['private'] as const,
  /** privateStatusQuery's (api/queries.ts: Account reads it too). */
  status: ['private', 'status'] as const,
  items: (folderId: string) => ['private', 'items', folderId] as const,
};

export function privateItemsQuery(folderId: string) {
  return queryOptions({
    queryKey: privateKeys.items(folderId),
    queryFn: async () =>
      (await data(api.GET('/nodes', { params: { query: { parent_id: folderId, sort: 'taken', order: 'desc', limit: 1000 } } }))).items,
  });
}
