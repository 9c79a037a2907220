import { useInfiniteQuery, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client.ts';
import { nodeGrantsQuery, nodePathQuery, nodeQuery, peopleKeys } from '../../api/queries.ts';
import type { Answer } from '../../api/types.ts';

export type ShareLink = Answer<'/shares', 'get'>['items'][number];
export type Grant = Answer<'/nodes/{id}/permissions', 'get'>['items'][number];
export type Person = Answer<'/users', 'get'>['items'][number];
export type Role = Grant['role'];
export type Appearances = Answer<'/nodes/{id}/appearances', 'get'>;
export type AlbumAppearance = Appearances['albums'][number];

export interface LinkSettings {
  password?: string | null;
  expires_at?: number | null;
  allow_download?: boolean;
}

/**
 * Keys of what sharing reads itself. A node, its path and its grants are the app's
 * (api/queries.ts), so the details panel of files and this dialog share one answer.
 */
export const shareKeys = {
  links: ['shares'] as const,
  nodeLinks: (nodeId: string) => ['shares', 'node', nodeId] as const,
  albumLinks: (albumId: string) => ['shares', 'album', albumId] as const,
  appearances: (nodeId: string) => ['shares', 'appearances', nodeId] as const,
  mine: ['shares', 'mine'] as const,
  people: (q: string) => [...peopleKeys.all, 'find', q] as const,
};

/** For the create request's Idempotency-Key: a retried tap never makes a second link. */
function idempotencyKey(): string {
  // getRandomValues exists on plain-HTTP pages too (randomUUID does not).
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** What links open: a file or folder, or an album (its owner makes links to it too). */
export type LinkTarget = { kind: 'node'; id: string } | { kind: 'album'; id: string };

export function useTargetLinks(target: LinkTarget) {
  return useQuery({
    queryKey: target.kind === 'node' ? shareKeys.nodeLinks(target.id) : shareKeys.albumLinks(target.id),
    queryFn: async () =>
      target.kind === 'node'
        ? (await data(api.GET('/nodes/{id}/shares', { params: { path: { id: target.id } } }))).items
        : (await data(api.GET('/albums/{id}/shares', { params: { path: { id: target.id } } }))).items,
  });
}

export function useMyLinks() {
  return useInfiniteQuery({
    queryKey: shareKeys.mine,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      data(api.GET('/shares', { params: { query: { limit: 100, ...(pageParam ? { cursor: pageParam } : {}) } } })),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}

/** The nodes behind a list of links (a link names its node by id only). */
export function useLinkedNodes(nodeIds: string[]) {
  return useQueries({ queries: [...new Set(nodeIds)].map((id) => nodeQuery(id)) });
}

/** The albums behind a list of links, by id. */
export function useLinkedAlbums(albumIds: string[]) {
  return useQueries({
    queries: [...new Set(albumIds)].map((id) => ({
      queryKey: ['shares', 'linked-album', id] as const,
      queryFn: () => data(api.GET('/albums/{id}', { params: { path: { id } } })),
    })),
  });
}

export function useLinkMutations(target: LinkTarget) {
  const queryClient = useQueryClient();
  const settle = () => queryClient.invalidateQueries({ queryKey: shareKeys.links });
  const create = useMutation({
    mutationFn: (settings: LinkSettings) => {
      const request = { params: { path: { id: target.id } }, body: settings, headers: { 'Idempotency-Key': idempotencyKey() } };
      return data(target.kind === 'node' ? api.POST('/nodes/{id}/share', request) : api.POST('/albums/{id}/share', request));
    },
    onSettled: settle,
  });
  const update = useMutation({
    mutationFn: ({ id, settings }: { id: string; settings: LinkSettings }) =>
      data(api.PATCH('/shares/{id}', { params: { path: { id } }, body: settings })),
    onSettled: settle,
  });
  const revoke = useMutation({
    mutationFn: (id: string) => data(api.DELETE('/shares/{id}', { params: { path: { id } } })),
    onSettled: settle,
  });
  return { create, update, revoke };
}

export function useGrants(nodeId: string) {
  return useQuery(nodeGrantsQuery(nodeId));
}

/**
 * Access given on the folders above a node covers it too. The API lists a node's own grants;
 * the folders above come from its path, each with its own grants (a few small requests, only
 * for the owner, who sees the whole path).
 */
export function useInheritedGrants(nodeId: string, enabled: boolean) {
  const path = useQuery({ ...nodePathQuery(nodeId), enabled });
  const above = (path.data ?? []).filter((node) => node.id !== nodeId);
  const grants = useQueries({ queries: above.map((folder) => ({ ...nodeGrantsQuery(folder.id), enabled })) });
  return above.flatMap((folder, i) => (grants[i]?.data ?? []).map((grant) => ({ ...grant, folder })));
}

export function useGrantMutations(nodeId: string) {
  const queryClient = useQueryClient();
  const settle = () => queryClient.invalidateQueries({ queryKey: nodeGrantsQuery(nodeId).queryKey });
  const grant = useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: Role }) =>
      data(api.POST('/nodes/{id}/permissions', { params: { path: { id: nodeId } }, body: { user_id: userId, role } })),
    onSettled: settle,
  });
  const remove = useMutation({
    mutationFn: (userId: string) => data(api.DELETE('/nodes/{id}/permissions/{userId}', { params: { path: { id: nodeId, userId } } })),
    onSettled: settle,
  });
  return { grant, remove };
}

/** Family members whose name contains `q` (everyone when empty: a family is a short list). */
export function useFindPeople(q: string) {
  return useQuery({
    queryKey: shareKeys.people(q),
    queryFn: async () => (await data(api.GET('/users', { params: { query: { limit: 50, ...(q ? { q } : {}) } } }))).items,
    placeholderData: (previous) => previous,
    staleTime: 60_000,
  });
}

/** Every album and link showing one of the caller's photos (its owner's view of who sees it). */
export function useAppearances(nodeId: string) {
  return useQuery({
    queryKey: shareKeys.appearances(nodeId),
    queryFn: () => data(api.GET('/nodes/{id}/appearances', { params: { path: { id: nodeId } } })),
  });
}

/** Its owner takes the photo out of an album, or says whether the album's links may show it. */
export function useAppearanceMutations(nodeId: string) {
  const queryClient = useQueryClient();
  // Albums listen to their own events; what changes here for this page is the list itself.
  const settle = () => queryClient.invalidateQueries({ queryKey: shareKeys.appearances(nodeId) });
  const takeOut = useMutation({
    mutationFn: (albumId: string) => data(api.DELETE('/nodes/{id}/appearances/{albumId}', { params: { path: { id: nodeId, albumId } } })),
    onSettled: settle,
  });
  const setOnLinks = useMutation({
    mutationFn: ({ albumId, onLinks }: { albumId: string; onLinks: boolean }) =>
      data(
        api.PATCH('/nodes/{id}/appearances/{albumId}', {
          params: { path: { id: nodeId, albumId } },
          body: { on_links: onLinks },
        }),
      ),
    // The answer is the album as it now shows the photo: the list takes it at once, then asks again.
    onSuccess: (now) =>
      queryClient.setQueryData<Appearances>(shareKeys.appearances(nodeId), (before) =>
        before ? { ...before, albums: before.albums.map((album) => (album.album_id === now.album_id ? now : album)) } : before,
      ),
    onSettled: settle,
  });
  return { takeOut, setOnLinks };
}
