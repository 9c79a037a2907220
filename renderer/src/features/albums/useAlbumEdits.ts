import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { Node } from '../../api/types.ts';
import type { Selection } from '../../ui/useSelection.ts';
import { capitalise, selectionWords } from '../../kits/photos/index.ts';
import { useAlbumMutations, type AlbumItem } from './queries.ts';
import { useMemberUndo } from './useMemberUndo.tsx';

/**
 * The album's changes from its page: take photos out, use one as the cover, leave it, undo taking
 * someone out (`undoRemoval`). Each says how it went, in the page's message (`said`) or its error (`failure`).
 */
export function useAlbumEdits(albumId: string, me: string, selection: Selection<Node>, afterTakenOut: (ids: readonly string[]) => void) {
  const navigate = useNavigate();
  const mutations = useAlbumMutations(albumId);
  const undoRemoval = useMemberUndo(mutations);
  const [said, setSaid] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const takeOut = (nodes: AlbumItem[]) => {
    setFailure(null);
    mutations.removeItems.mutate(
      nodes.map((node) => node.id),
      {
        onSuccess: () => {
          selection.clear();
          setSaid(
            `${capitalise(selectionWords(nodes))} taken out of the album. ${nodes.length === 1 ? 'It is' : 'They are'} still where ${nodes.length === 1 ? 'it was' : 'they were'}.`,
          );
          afterTakenOut(nodes.map((node) => node.id));
        },
        onError: (error) => setFailure(error.message),
      },
    );
  };
  const makeCover = (node: AlbumItem) => {
    setFailure(null);
    mutations.update.mutate(
      { cover_node_id: node.id },
      {
        onSuccess: () => {
          selection.clear();
          setSaid('The album’s cover is changed.');
        },
        onError: (error) => setFailure(error.message),
      },
    );
  };
  const leave = () =>
    mutations.removeMember.mutate(me, {
      onSuccess: () => navigate('/albums', { replace: true }),
      onError: (error) => setFailure(error.message),
    });
  return { mutations, said, setSaid, failure, setFailure, takeOut, makeCover, leave, undoRemoval };
}
