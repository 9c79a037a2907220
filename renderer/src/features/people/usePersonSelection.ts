import type { Node } from '../../api/types.ts';
import { useGallerySelection, useTrash, type PageAction, type Selection } from '../../kits/photos/index.ts';
import { useMergePeople, useNotInPhotos } from './person-queries.ts';
import type { Person } from './queries.ts';
import type { Said } from './PersonToast.tsx';
import { faceCount, personNameInside } from './words.ts';

/**
 * Their photos chosen, as in Photos (download, share, add to album, trash…), and one action of
 * this page's own: "Not <name>", for photos they are not in after all (their face in each moves
 * out; Undo puts it back).
 */
export function usePersonSelection(
  personId: string,
  /** Undefined while their page loads. */
  person: Person | undefined,
  onSaid: (said: Said | null) => void,
  afterTrash: (trashed: Node[]) => void,
): { selection: Selection; extra: PageAction[]; trash: ReturnType<typeof useTrash> } {
  const selection = useGallerySelection();
  const notIn = useNotInPhotos();
  const merge = useMergePeople();
  const inside = personNameInside(person ?? { name: null });
  const trash = useTrash((trashed) => {
    selection.clear();
    afterTrash(trashed);
  });
  const notThem: PageAction = {
    label: `Not ${inside}`,
    short: 'Not them',
    icon: 'remove',
    place: 'bar',
    disabled: selection.count === 0 || selection.count >= (person?.photo_count ?? 0) || notIn.isPending,
    onClick: () =>
      notIn.mutate(
        { person: personId, photos: selection.items().map((node) => node.id) },
        {
          onSuccess: (moved) => {
            selection.clear();
            onSaid({
              text: `${faceCount(moved.length)} moved out of ${inside}. ${moved.length === 1 ? 'It is' : 'Each is'} now someone of its own on People.`,
              undo: moved.length > 0 ? () => merge.mutate({ into: personId, from: moved.map((p) => p.id) }) : undefined,
            });
          },
          onError: (error) => onSaid({ text: error.message }),
        },
      ),
  };
  return { selection, extra: [notThem], trash };
}
