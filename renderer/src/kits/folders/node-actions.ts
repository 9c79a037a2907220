import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client.ts';
import { nodeKeys } from '../../api/queries.ts';
import type { Node, NodeColor } from '../../api/types.ts';

export type Action =
  | { kind: 'rename'; name: string }
  | { kind: 'move'; parentId: string | null }
  | { kind: 'color'; color: NodeColor | null }
  | { kind: 'star'; on: boolean }
  | { kind: 'trash' }
  | { kind: 'restore' }
  | { kind: 'purge' };

function run(node: Node, action: Action): Promise<unknown> {
  const path = { params: { path: { id: node.id } } };
  switch (action.kind) {
    case 'rename':
      return data(api.PATCH('/nodes/{id}', { ...path, body: { name: action.name } }));
    case 'move':
      return data(api.PATCH('/nodes/{id}', { ...path, body: { parent_id: action.parentId ?? 'root' } }));
    case 'color':
      return data(api.PATCH('/nodes/{id}', { ...path, body: { color: action.color } }));
    case 'star':
      return data(action.on ? api.POST('/nodes/{id}/star', path) : api.DELETE('/nodes/{id}/star', path));
    case 'trash':
      return data(api.DELETE('/nodes/{id}', path));
    case 'restore':
      return data(api.POST('/nodes/{id}/restore', path));
    case 'purge':
      return data(api.DELETE('/nodes/{id}/permanent', path));
  }
}

export interface BulkResult {
  done: number;
  failed: { node: Node; message: string }[];
}

/** One action on one or many nodes, four at a time; every view is refreshed after. */
export function useNodeAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ nodes, action }: { nodes: Node[]; action: Action }): Promise<BulkResult> => {
      const result: BulkResult = { done: 0, failed: [] };
      const queue = [...nodes];
      const worker = async () => {
        for (let node = queue.shift(); node; node = queue.shift()) {
          try {
            await run(node, action);
            result.done += 1;
          } catch (caught) {
            result.failed.push({ node, message: caught instanceof Error ? caught.message : String(caught) });
          }
        }
      };
      await Promise.all([worker(), worker(), worker(), worker()]);
      if (nodes.length === 1 && result.failed[0]) throw new Error(result.failed[0].message);
      return result;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: nodeKeys.all }),
  });
}
