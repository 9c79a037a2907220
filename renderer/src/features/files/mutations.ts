import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client.ts';
import { nodeKeys } from '../../api/queries.ts';
import type { Node } from '../../api/types.ts';

export function useCreateFolder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ name, parentId, key }: { name: string; parentId: string | null; key: string }) =>
      data(api.POST('/nodes/folder', { body: { name, parent_id: parentId ?? 'root' }, headers: { 'Idempotency-Key': key } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: nodeKeys.all }),
  });
}

export function useRestoreVersion(node: Node) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (versionId: string) =>
      data(api.POST('/nodes/{id}/versions/{vid}/restore', { params: { path: { id: node.id, vid: versionId } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: nodeKeys.all }),
  });
}

/** "Move to Private": out of My files, Photos, albums and shares, into the person's locked folder. */
export function useMoveToPrivate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (node: Node) => data(api.POST('/nodes/{id}/private', { params: { path: { id: node.id } } })),
    onSettled: () => queryClient.invalidateQueries(),
  });
}
