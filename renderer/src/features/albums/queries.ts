import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client.ts';
import type { Answer } from '../../api/types.ts';

export type Album = Answer<'/albums/{id}', 'get'>;
export type AlbumItem = Answer<'/albums/{id}/items', 'get'>['items'][number];
export type AlbumMember = Answer<'/albums/{id}/members', 'get'>['items'][number];
export type MemberRole = AlbumMember['role'];
export type AlbumScope = 'mine' | 'shared' | 'contribute';

/**
 * What albums read, under keys of their own: album events (and node events about what they
 * show) refresh them (see useLiveAlbums), never the file lists' `nodeKeys`.
 */
export const albumKeys = {
  all: ['albums'] as const,
  list: (scope: AlbumScope) => ['albums', 'list', scope] as const,
  one: (id: string) => ['albums', 'one', id] as const,
  items: (id: string) => ['albums', 'items', id] as const,
  members: (id: string) => ['albums', 'members', id] as const,
};

/** Items per request: a phone's first screen needs fewer, and an album of 5,000 takes ten. */
export const ITEMS_PAGE = 500;

/** For the create request's Idempotency-Key: a retried tap never makes a second album. */
function idempotencyKey(): string {
  // getRandomValues exists on plain-HTTP pages too (randomUUID does not).
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

export function useAlbums(scope: AlbumScope) {
  return useInfiniteQuery({
    queryKey: albumKeys.list(scope),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      data(api.GET('/albums', { params: { query: { scope, limit: 100, ...(pageParam ? { cursor: pageParam } : {}) } } })),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}

export function useAlbum(id: string) {
  return useQuery({
    queryKey: albumKeys.one(id),
    queryFn: () => data(api.GET('/albums/{id}', { params: { path: { id } } })),
    // A 404 is an answer (deleted, or no longer shared): asking again would not change it.
    retry: false,
  });
}

export function albumItemsQuery(id: string) {
  return {
    queryKey: albumKeys.items(id),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }: { pageParam: string | undefined }) =>
      data(
        api.GET('/albums/{id}/items', {
          params: { path: { id }, query: { limit: ITEMS_PAGE, ...(pageParam ? { cursor: pageParam } : {}) } },
        }),
      ),
    getNextPageParam: (last: { next_cursor: string | null }) => last.next_cursor ?? undefined,
    retry: false,
  };
}

export function useAlbumItems(id: string) {
  return useInfiniteQuery(albumItemsQuery(id));
}

export function useAlbumMembers(id: string) {
  return useQuery({
    queryKey: albumKeys.members(id),
    queryFn: async () => (await data(api.GET('/albums/{id}/members', { params: { path: { id } } }))).items,
  });
}

/** Every change of albums refreshes what albums show: the server's answer is the truth. */
function useSettle() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: albumKeys.all });
}

export function useCreateAlbum() {
  const settle = useSettle();
  return useMutation({
    mutationFn: (input: { name: string; node_ids?: string[] }) =>
      data(api.POST('/albums', { body: input, headers: { 'Idempotency-Key': idempotencyKey() } })),
    onSettled: settle,
  });
}

export function useAlbumMutations(id: string) {
  const settle = useSettle();
  const update = useMutation({
    mutationFn: (patch: { name?: string; cover_node_id?: string | null }) =>
      data(api.PATCH('/albums/{id}', { params: { path: { id } }, body: patch })),
    onSettled: settle,
  });
  const remove = useMutation({
    mutationFn: () => data(api.DELETE('/albums/{id}', { params: { path: { id } } })),
    onSettled: settle,
  });
  const removeItems = useMutation({
    mutationFn: (nodeIds: string[]) =>
      data(api.POST('/albums/{id}/items/remove', { params: { path: { id } }, body: { node_ids: nodeIds } })),
    onSettled: settle,
  });
  const invite = useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: MemberRole }) =>
      data(api.POST('/albums/{id}/members', { params: { path: { id } }, body: { user_id: userId, role } })),
    onSettled: settle,
  });
  const removeMember = useMutation({
    mutationFn: (userId: string) => data(api.DELETE('/albums/{id}/members/{userId}', { params: { path: { id, userId } } })),
    onSettled: settle,
  });
  const restoreMember = useMutation({
    mutationFn: (userId: string) => data(api.POST('/albums/{id}/members/{userId}/restore', { params: { path: { id, userId } } })),
    onSettled: settle,
  });
  return { update, remove, removeItems, invite, removeMember, restoreMember };
}

export function useAddToAlbum() {
  const settle = useSettle();
  return useMutation({
    mutationFn: ({ albumId, nodeIds, onLinks }: { albumId: string; nodeIds: string[]; onLinks?: boolean }) =>
      data(
        api.POST('/albums/{id}/items', {
          params: { path: { id: albumId } },
          body: { node_ids: nodeIds, ...(onLinks !== undefined && { on_links: onLinks }) },
        }),
      ),
    onSettled: settle,
  });
}

/**
 * The caller's folder for this album's uploads (Albums/<name> in their My files), made if
 * missing; `onLinks`: whether the album's links may show what they send there (absent: the
 * server's default, yes for the album's owner and no for anyone else).
 */
export function uploadFolderOf(albumId: string, onLinks?: boolean) {
  return data(
    api.POST('/albums/{id}/upload-folder', {
      params: { path: { id: albumId } },
      body: onLinks === undefined ? {} : { on_links: onLinks },
    }),
  );
}
