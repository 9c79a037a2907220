import type { Node } from '../../../api/types.ts';
import { Notice } from '../../../ui/Notice.tsx';
import { FolderPicker, useNodeAction } from '../../folders/index.ts';
import { selectionWords } from '../words.ts';

/**
 * Moving the person's own photos into a folder of My files, with the folder picker of Files;
 * what they may not move was left out before (`skipped` says so here).
 */
export function MoveToFolder({
  nodes,
  skipped,
  onMoved,
  onClose,
}: {
  nodes: readonly Node[];
  skipped: string | null;
  onMoved: (message: string) => void;
  onClose: () => void;
}) {
  const move = useNodeAction();
  const what = selectionWords(nodes);
  return (
    <FolderPicker
      title={`Move ${what} to a folder`}
      intro={skipped && <Notice tone="info">{skipped}</Notice>}
      // Where they all are already: nothing to move, so the button says so and rests.
      choice={(here) =>
        nodes.every((node) => (node.parent_id ?? null) === (here?.id ?? null))
          ? { label: 'Already here', disabled: true }
          : { label: `Move to ${here?.name ?? 'My files'}`, disabled: false }
      }
      busy={move.isPending}
      error={move.error?.message ?? null}
      onPick={(folder) =>
        move.mutate(
          { nodes: [...nodes], action: { kind: 'move', parentId: folder?.id ?? null } },
          {
            onSuccess: (result) => {
              const where = folder ? `“${folder.name}”` : 'My files';
              const failed = result.failed.length;
              onMoved(
                failed === 0
                  ? `Moved ${what} to ${where}.`
                  : `Moved ${result.done.toLocaleString()} to ${where}; ${failed.toLocaleString()} could not be: ${result.failed[0]!.message}`,
              );
            },
          },
        )
      }
      onClose={onClose}
    />
  );
}
