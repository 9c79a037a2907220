import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client.ts';
import type { Answer } from '../../api/types.ts';
import { albumsRoot } from './keys.ts';

export type PhotoEdits = Answer<'/photos/{id}/edits', 'get'>;

/** The body of an edit: a turn, a date (an instant and its zone), a place by name or none. */
export interface EditRequest {
  rotation?: number;
  taken_at?: number;
  taken_offset?: number | null;
  place?: { name: string } | null;
}

const editKey = (id: string) => ['photos', 'edits', id] as const;

/** A photo's edits (the Edit panel and "Download as edited" read the same answer). */
export function photoEditsQuery(id: string) {
  return queryOptions({
    queryKey: editKey(id),
    queryFn: () => data(api.GET('/photos/{id}/edits', { params: { path: { id } } })),
  });
}

/**
 * A photo's edits as the server keeps them, and the changes to them. The timeline and albums
 * follow through the `node.updated` the server sends everyone who sees the photo.
 */
export function usePhotoEdits(id: string) {
  const queryClient = useQueryClient();
  const state = useQuery(photoEditsQuery(id));
  const keep = (answer: PhotoEdits) => queryClient.setQueryData(editKey(id), answer);
  // A turn changes the photo's picture wherever it shows, an album's cover too: the albums are asked again.
  const keepTurned = (answer: PhotoEdits) => {
    const before = queryClient.getQueryData<PhotoEdits>(editKey(id))?.rotation;
    keep(answer);
    if (before !== answer.rotation) void queryClient.invalidateQueries({ queryKey: albumsRoot });
  };
  const edit = useMutation({
    mutationFn: (body: EditRequest) => data(api.PATCH('/photos/{id}/edits', { params: { path: { id } }, body })),
    onSuccess: keepTurned,
  });
  const revert = useMutation({
    mutationFn: () => data(api.DELETE('/photos/{id}/edits', { params: { path: { id } } })),
    onSuccess: keepTurned,
  });
  return { state, edit, revert };
}

/** A quarter turn more, to the left (-1) or the right (1), as 0, 90, 180 or 270. */
export function turned(rotation: number, way: -1 | 1): number {
  return (((rotation + way * 90) % 360) + 360) % 360;
}

/**
 * The day and time a photo was taken on the clock where it was taken (what a date and a time
 * input show): its instant moved by its zone, read as UTC. Empty when it has no date.
 */
export function wallClock(takenAt: number | undefined, offset: number | undefined): { date: string; time: string } {
  if (takenAt === undefined) return { date: '', time: '' };
  const iso = new Date(takenAt + (offset ?? 0) * 60_000).toISOString();
  return { date: iso.slice(0, 10), time: iso.slice(11, 16) };
}

/** The instant of a day and time on the clock of the zone `offset` minutes east of UTC; null for no valid day. */
export function instantOf(date: string, time: string, offset: number | undefined): number | null {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!day) return null;
  const clock = /^(\d{2}):(\d{2})/.exec(time);
  const wall = Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]), clock ? Number(clock[1]) : 12, clock ? Number(clock[2]) : 0);
  return wall - (offset ?? 0) * 60_000;
}
