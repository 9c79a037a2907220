import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { api, data } from '../../api/client.ts';
import { nodeKeys } from '../../api/queries.ts';
import type { Node } from '../../api/types.ts';
import type { useViewerRoute } from '../../kits/photos/index.ts';
import { plural } from '../../ui/format.ts';
import { Notice } from '../../ui/Notice.tsx';
import { galleryKeys } from './queries.ts';

/**
 * "Move to Private", one action: each of the person's own photos goes into their Private folder
 * (no unlock needed to put something in), and out of Photos, albums and shares at once.
 * `said` is what to show: how many went, or why they could not.
 */
export function useMoveToPrivate(onMoved: (moved: Node[]) => void) {
  const queryClient = useQueryClient();
  const [note, setNote] = useState<string | null>(null);
  const move = useMutation({
    mutationFn: async (nodes: Node[]) => {
      const mine = nodes.filter((node) => !node.shared);
      for (const node of mine) await data(api.POST('/nodes/{id}/private', { params: { path: { id: node.id } } }));
      return mine;
    },
    onSuccess: (moved) => {
      setNote(moved.length > 0 ? movedWords(moved.length) : null);
      onMoved(moved);
      void queryClient.invalidateQueries({ queryKey: galleryKeys.all });
      void queryClient.invalidateQueries({ queryKey: nodeKeys.all });
    },
  });
  const said: ReactNode = move.isError ? <Notice tone="error">{move.error.message}</Notice> : note && <Notice>{note}</Notice>;
  return { mutate: move.mutate, said };
}

function movedWords(count: number): string {
  if (count === 1) return 'Moved to Private. Only you can open it there.';
  return `${plural(count, 'photo')} moved to Private. Only you can open them there.`;
}

/** The viewer showed a photo that is gone from the timeline: on to the next one, or back to the timeline. */
export function stepPast(viewer: ReturnType<typeof useViewerRoute<Node>>, gone: Node[]): void {
  const shown = viewer.viewing.current.item;
  if (!shown || !gone.some((node) => node.id === shown.id)) return;
  const next = viewer.viewing.current.next;
  if (next) viewer.show(next);
  else viewer.close();
}
