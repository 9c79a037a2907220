import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client.ts';
import type { Answer } from '../../api/types.ts';
import { photoFacesRoot, timelineRoot } from '../../kits/photos/index.ts';
import { peopleKeys, type Person } from './queries.ts';

export type PersonFace = Answer<'/people/{id}/faces', 'get'>['items'][number];

/** A person's page reads under People's key: whatever changes People asks these again too. */
export const personKeys = {
  one: (id: string) => [...peopleKeys.all, 'person', id] as const,
  photos: (id: string) => [...peopleKeys.all, 'person', id, 'photos'] as const,
  faces: (id: string) => [...peopleKeys.all, 'person', id, 'faces'] as const,
};

const PAGE = 200;

export function usePerson(id: string) {
  return useQuery({
    queryKey: personKeys.one(id),
    queryFn: () => data(api.GET('/people/{id}', { params: { path: { id } } })),
    retry: false,
  });
}

/** Their photos, newest taken first, a page at a time as the grid comes to them. */
export function usePersonPhotos(id: string) {
  return useInfiniteQuery({
    queryKey: personKeys.photos(id),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      data(
        api.GET('/people/{id}/photos', { params: { path: { id }, query: { limit: PAGE, ...(pageParam ? { cursor: pageParam } : {}) } } }),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}

/** Their faces, to pick out the ones that are not them. */
export function usePersonFaces(id: string, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: personKeys.faces(id),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      data(
        api.GET('/people/{id}/faces', { params: { path: { id }, query: { limit: PAGE, ...(pageParam ? { cursor: pageParam } : {}) } } }),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    enabled,
  });
}

/** People, their pages, the viewer's faces and search's results all change with a person. */
function useRefreshPeople() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: peopleKeys.all }),
      client.invalidateQueries({ queryKey: photoFacesRoot }),
      client.invalidateQueries({ queryKey: timelineRoot }),
    ]);
}

export function useUpdatePerson() {
  const refresh = useRefreshPeople();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: string; name?: string | null; hidden?: boolean }) =>
      data(api.PATCH('/people/{id}', { params: { path: { id } }, body })),
    onSuccess: refresh,
  });
}

/** `from`'s faces join `into`: one person afterwards, `into`'s name kept (else `from`'s). */
export function useMergePeople() {
  const refresh = useRefreshPeople();
  return useMutation({
    mutationFn: ({ into, from }: { into: string; from: string[] }) =>
      data(api.POST('/people/{id}/merge', { params: { path: { id: into } }, body: { from } })),
    onSuccess: refresh,
  });
}

async function moveOut(person: string, faces: readonly string[]): Promise<Person[]> {
  const moved: Person[] = [];
  for (const faceId of faces) {
    const answer = await data(api.DELETE('/people/{id}/faces/{faceId}', { params: { path: { id: person, faceId } } }));
    moved.push(answer.person);
  }
  return moved;
}

/** Faces that are not this person leave them, each becoming someone of its own; the new people are returned (for Undo). */
export function useMoveFacesOut() {
  const refresh = useRefreshPeople();
  return useMutation({
    mutationFn: ({ person, faces }: { person: string; faces: string[] }) => moveOut(person, faces),
    // Also when one of several failed: those before it did move.
    onSettled: refresh,
  });
}

/** Photos they are not in after all: their face in each (as the photo's faces say) leaves them. */
export function useNotInPhotos() {
  const refresh = useRefreshPeople();
  return useMutation({
    mutationFn: async ({ person, photos }: { person: string; photos: readonly string[] }) => {
      const faces: string[] = [];
      for (const id of photos) {
        const found = await data(api.GET('/photos/{id}/faces', { params: { path: { id } } }));
        faces.push(...found.items.filter((face) => face.person_id === person).map((face) => face.id));
      }
      return moveOut(person, faces);
    },
    // Also when one of several failed: those before it did move.
    onSettled: refresh,
  });
}
