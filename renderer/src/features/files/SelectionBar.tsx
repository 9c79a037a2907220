import type { Node } from '../../api/types.ts';
import { Button, IconButton } from '../../ui/Button.tsx';
import { plural } from '../../ui/format.ts';
import type { useNodeAction } from '../../kits/folders/index.ts';
import type { Open } from './dialogs.tsx';

/** What can be done with the chosen items at once: in the trash, restore or delete; elsewhere, star, move or trash. */
export function SelectionBar({
  chosen,
  inTrash,
  act,
  onClear,
  onOpen,
}: {
  chosen: Node[];
  inTrash: boolean;
  act: ReturnType<typeof useNodeAction>;
  onClear: () => void;
  onOpen: (open: Open) => void;
}) {
  return (
    <div className="selection-bar" role="toolbar" aria-label="Selection">
      {/* First, beside the count, as in a phone's own apps; the actions follow (their own row on a phone). */}
      <IconButton icon="close" label="Clear selection" onClick={onClear} />
      <strong>{plural(chosen.length, 'selected', 'selected')}</strong>
      <div className="spacer" />
      {inTrash ? (
        <>
          <Button icon="restore" onClick={() => act.mutate({ nodes: chosen, action: { kind: 'restore' } }, { onSuccess: onClear })}>
            Restore
          </Button>
          <Button icon="trash" variant="danger" onClick={() => onOpen({ kind: 'purge', nodes: chosen })}>
            Delete for good
          </Button>
        </>
      ) : (
        <>
          <Button icon="star" onClick={() => act.mutate({ nodes: chosen, action: { kind: 'star', on: !chosen.every((n) => n.starred) } })}>
            {chosen.every((n) => n.starred) ? 'Remove from favourites' : 'Favourite'}
          </Button>
          <Button icon="folder" onClick={() => onOpen({ kind: 'move', nodes: chosen })}>
            Move
          </Button>
          <Button icon="trash" variant="danger" onClick={() => onOpen({ kind: 'trash', nodes: chosen })}>
            Trash
          </Button>
        </>
      )}
    </div>
  );
}
