import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { api, data } from '../../api/client.ts';
import type { Node } from '../../api/types.ts';
import { ProgressBar } from '../../ui/Notice.tsx';
import { backInWords, movedOutWords } from './words.ts';

const TOAST_MS = 10_000;

type Stage =
  | { kind: 'idle' }
  | { kind: 'working'; total: number; done: number; undoing: boolean }
  | { kind: 'done'; message: string; undo: Node[] | null };

/**
 * "Move out" of a selection in Private: each one back to the folder it came from, one at a time
 * (two of the same name going back to one folder each get a free name), with progress, then how
 * many went where and Undo (they go back into Private) for a while after.
 */
export function useMoveOutMany(onMoved: () => void) {
  const queryClient = useQueryClient();
  const [stage, setStage] = useState<Stage>({ kind: 'idle' });
  useEffect(() => {
    if (stage.kind !== 'done') return;
    const timer = setTimeout(() => setStage({ kind: 'idle' }), TOAST_MS);
    return () => clearTimeout(timer);
  }, [stage]);

  const each = async (nodes: Node[], undoing: boolean, task: (node: Node) => Promise<Node>) => {
    setStage({ kind: 'working', total: nodes.length, done: 0, undoing });
    const done: { node: Node; now: Node }[] = [];
    const failed: Node[] = [];
    for (const node of nodes) {
      try {
        done.push({ node, now: await task(node) });
      } catch {
        failed.push(node);
      }
      setStage((now) => (now.kind === 'working' ? { ...now, done: now.done + 1 } : now));
    }
    // Back in My files and Photos (or in Private again): every view of files is asked again.
    void queryClient.invalidateQueries();
    return { done, failed };
  };

  const moveOut = async (nodes: Node[]) => {
    const { done, failed } = await each(nodes, false, (node) =>
      data(api.DELETE('/nodes/{id}/private', { params: { path: { id: node.id } } })),
    );
    onMoved();
    const places = new Set(done.map(({ now }) => now.parent_id));
    const place = places.size === 1 ? await placeName([...places][0]!) : null;
    const moved = done.map(({ node }) => node);
    setStage({ kind: 'done', message: movedOutWords(moved, failed, place), undo: moved.length > 0 ? moved : null });
  };

  const putBack = async (nodes: Node[]) => {
    const { done, failed } = await each(nodes, true, (node) =>
      data(api.POST('/nodes/{id}/private', { params: { path: { id: node.id } } })),
    );
    setStage({
      kind: 'done',
      message: backInWords(
        done.map(({ node }) => node),
        failed,
      ),
      undo: null,
    });
  };

  let view: ReactNode = null;
  if (stage.kind === 'working') {
    const words = stage.undoing ? 'Putting back in Private' : 'Moving out of Private';
    view = (
      <div className="gallery-toast" role="status">
        <span>
          {words}… {stage.done.toLocaleString()} of {stage.total.toLocaleString()}
        </span>
        <ProgressBar value={stage.done / stage.total} label={words} />
      </div>
    );
  } else if (stage.kind === 'done') {
    const undo = stage.undo;
    view = (
      <div className="gallery-toast" role="status">
        <span>{stage.message}</span>
        {undo && (
          <button type="button" className="btn btn-quiet gallery-toast-action" onClick={() => void putBack(undo)}>
            Undo
          </button>
        )}
      </div>
    );
  }
  return { moveOut: (nodes: Node[]) => void moveOut(nodes), view, busy: stage.kind === 'working' };
}

/** The folder's name for the message; a folder that cannot be read is not named. */
async function placeName(parentId: string | null): Promise<string | null> {
  if (parentId === null) return 'My files';
  try {
    return (await data(api.GET('/nodes/{id}', { params: { path: { id: parentId } } }))).name;
  } catch {
    return null;
  }
}
