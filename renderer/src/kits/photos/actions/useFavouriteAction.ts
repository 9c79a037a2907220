import type { Node } from '../../../api/types.ts';
import type { Selection } from '../../../ui/useSelection.ts';
import { capitalise, selectionWords } from '../words.ts';
import { useFavourite } from './favourites.ts';
import type { useActionMessages } from './messages.tsx';

/** Favourite, or Remove from favourites when every one chosen is one already. */
export function useFavouriteAction(
  selection: Selection<Node>,
  nodes: Node[],
  messages: ReturnType<typeof useActionMessages>,
  close: () => void,
) {
  const favourite = useFavourite();
  const allFavourite = nodes.length > 0 && nodes.every((node) => node.starred);
  const toggleFavourite = () => {
    close();
    const on = !allFavourite;
    favourite.mutate(
      { nodes, on },
      {
        onSuccess: ({ done, failed }) => {
          // The selection keeps items as they were chosen: give it the new mark, so the button turns.
          if (selection.active) {
            selection.set(
              done.map((node) => ({ ...node, starred: on })),
              true,
            );
          }
          const what = selectionWords(done);
          const message = on
            ? `${capitalise(what)} ${done.length === 1 ? 'is a favourite' : 'are favourites'} now: find ${done.length === 1 ? 'it' : 'them'} in Favourites too.`
            : `${capitalise(what)} ${done.length === 1 ? 'is' : 'are'} no longer ${done.length === 1 ? 'a favourite' : 'favourites'}.`;
          if (failed.length > 0)
            messages.setFailure(`${capitalise(selectionWords(failed))} could not be changed. Check your connection and try again.`);
          else messages.tell(message);
        },
      },
    );
  };
  return { allFavourite, toggleFavourite, pending: favourite.isPending };
}
