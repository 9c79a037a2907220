import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client.ts';
import type { Answer } from '../../api/types.ts';
import { idempotencyKey } from '../../api/ids.ts';

export type ShareLink = Answer<'/shares/{id}', 'patch'>;
export type Grant = Answer<'/nodes/{id}/permissions', 'post', 201>;

export const shareKeys = {
  links: (nodeId: string) => ['nodes', 'links', nodeId] as const,
  grants: (nodeId: string) => ['nodes', 'permissions', nodeId] as const,
  people: (q: string) => ['people', 'search', q] as const,
};

export function useLinks(nodeId: string) {
  return useQuery({ queryKey: shareKeys.links(nodeId), queryFn: async () => (await data(api.GET('/nodes/{id}/shares', { params: { path: { id: nodeId } } }))).items });
}

export interface LinkSettings {
  password?: string | null;
  expires_at?: number | null;
  allow_download?: boolean;
}

export function useLinkMutations(nodeId: string) {
  const queryClient = useQueryClient();
  const done = () => queryClient.invalidateQueries({ queryKey: shareKeys.links(nodeId) });
  return {
    create: useMutation({
      mutationFn: (settings: LinkSettings) =>
        data(api.POST('/nodes/{id}/share', { params: { path: { id: nodeId } }, body: settings, headers: { 'Idempotency-Key': idempotencyKey() } })),
      onSettled: done,
    }),
    update: useMutation({
      mutationFn: ({ id, settings }: { id: string; settings: LinkSettings }) => data(api.PATCH('/shares/{id}', { params: { path: { id } }, body: settings })),
      onSettled: done,
    }),
    revoke: useMutation({
      mutationFn: (id: string) => data(api.DELETE('/shares/{id}', { params: { path: { id } } })),
      onSettled: done,
    }),
  };
}

export function useGrants(nodeId: string) {
  return useQuery({ queryKey: shareKeys.grants(nodeId), queryFn: async () => (await data(api.GET('/nodes/{id}/permissions', { params: { path: { id: nodeId } } }))).items });
}

export function useGrantMutations(nodeId: string) {
  const queryClient = useQueryClient();
  const done = () => queryClient.invalidateQueries({ queryKey: shareKeys.grants(nodeId) });
  return {
    grant: useMutation({
      mutationFn: ({ userId, role }: { userId: string; role: 'viewer' | 'editor' }) =>
        data(api.POST('/nodes/{id}/permissions', { params: { path: { id: nodeId } }, body: { user_id: userId, role } })),
      onSettled: done,
    }),
    remove: useMutation({
      mutationFn: (userId: string) => data(api.DELETE('/nodes/{id}/permissions/{userId}', { params: { path: { id: nodeId, userId } } })),
      onSettled: done,
    }),
  };
}

/** Family members whose name contains `q` (the server keeps this to names and avatar seeds). */
export function usePeopleSearch(q: string) {
  return useQuery({
    queryKey: shareKeys.people(q),
    queryFn: async () => (await data(api.GET('/users', { params: { query: { q, limit: 20 } } }))).items,
    staleTime: 60_000,
  });
}
