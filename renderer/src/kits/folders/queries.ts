import { useQuery } from '@tanstack/react-query';
import { api, data } from '../../api/client.ts';
import { nodeKeys } from '../../api/queries.ts';

/** The picker's own key, under the app's `nodeKeys.all` (api/queries.ts): a node event refreshes it. */
const folderKeys = {
  folders: (parentId: string | null) => [...nodeKeys.all, 'folders', parentId] as const,
};

/** Folders only, for the folder picker. */
export function useFolders(parentId: string | null) {
  return useQuery({
    queryKey: folderKeys.folders(parentId),
    queryFn: async () => {
      const page = await data(
        api.GET('/nodes', { params: { query: { parent_id: parentId ?? 'root', sort: 'name', order: 'asc', limit: 1000 } } }),
      );
      return page.items.filter((n) => n.type === 'folder');
    },
  });
}
