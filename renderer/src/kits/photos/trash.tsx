import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { api, data } from '../../api/client.ts';
import { settingsQuery } from '../../api/queries.ts';
import type { Node } from '../../api/types.ts';
import { plural } from '../../ui/format.ts';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { ProgressBar } from '../../ui/Notice.tsx';
import { timelineRoot } from './keys.ts';
import { selectionWords } from './words.ts';
import './photos.css';

const PARALLEL = 4;
const TOAST_MS = 10_000;

/** Runs `task` on every node, a few at a time; reports progress; answers the nodes it failed on. */
async function eachNode(nodes: readonly Node[], task: (node: Node) => Promise<unknown>, progress: (done: number) => void): Promise<Node[]> {
  const failed: Node[] = [];
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < nodes.length) {
      const node = nodes[next++]!;
      try {
        await task(node);
      } catch {
        failed.push(node);
      }
      progress(++done);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, nodes.length) }, worker));
  return failed;
}

const what = (nodes: readonly Node[]): string => selectionWords(nodes);

type Stage =
  | { kind: 'idle' }
  | { kind: 'confirm'; nodes: Node[]; note: string | null }
  | { kind: 'working'; nodes: Node[]; done: number; restoring: boolean }
  | { kind: 'done'; message: string; undo: Node[] | null };

/**
 * Moving photos to the trash: it says how many first ("Move 1,204 items to the trash?"), shows
 * progress, and offers Undo for a while after. `render` returns what to draw (the question, the
 * progress and the message), placed by the caller: inside the viewer while it is open.
 * `onChanged` runs after each trash and each Undo: a page that lists them apart from the
 * timeline (Private) asks its own list again.
 */
export function useTrash(onTrashed?: (nodes: Node[]) => void, onChanged?: () => void) {
  const queryClient = useQueryClient();
  const [stage, setStage] = useState<Stage>({ kind: 'idle' });
  // How long the trash keeps things, said in the question (read when first asked).
  const settings = useQuery({ ...settingsQuery, enabled: stage.kind !== 'idle', staleTime: 5 * 60_000 });

  useEffect(() => {
    if (stage.kind !== 'done') return;
    const timer = setTimeout(() => setStage({ kind: 'idle' }), TOAST_MS);
    return () => clearTimeout(timer);
  }, [stage]);

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: timelineRoot });
    onChanged?.();
  };

  const run = async (nodes: Node[], restoring: boolean) => {
    setStage({ kind: 'working', nodes, done: 0, restoring });
    const failed = await eachNode(
      nodes,
      (node) =>
        restoring
          ? data(api.POST('/nodes/{id}/restore', { params: { path: { id: node.id } } }))
          : data(api.DELETE('/nodes/{id}', { params: { path: { id: node.id } } })),
      (done) => setStage((now) => (now.kind === 'working' ? { ...now, done } : now)),
    );
    refresh();
    const succeeded = nodes.filter((node) => !failed.includes(node));
    if (!restoring) onTrashed?.(succeeded);
    const verb = restoring ? 'restored' : 'moved to the trash';
    const message =
      failed.length === 0
        ? `${capitalise(what(nodes))} ${verb}.`
        : `${capitalise(selectionWords(succeeded))} ${verb}; ${selectionWords(failed)} could not be. Check your connection and try again.`;
    setStage({ kind: 'done', message, undo: restoring || succeeded.length === 0 ? null : succeeded });
  };

  /** `note` says what of a selection was left out, and why ("One is Emma’s: …"). */
  const ask = (nodes: Node[], note: string | null = null) => {
    if (nodes.length === 0) return;
    setStage({ kind: 'confirm', nodes, note });
  };

  let view: ReactNode = null;
  if (stage.kind === 'confirm') {
    const days = settings.data?.trash_retention_days;
    view = (
      <ConfirmDialog
        title={`Move ${what(stage.nodes)} to the trash?`}
        message={`${stage.note ? `${stage.note} ` : ''}${stage.nodes.length === 1 ? 'It' : 'They'} can be restored from the trash${days ? ` for ${plural(days, 'day')}` : ''}, then ${stage.nodes.length === 1 ? 'it is' : 'they are'} deleted for good.`}
        confirm="Move to trash"
        danger
        onClose={() => setStage({ kind: 'idle' })}
        onConfirm={() => void run(stage.nodes, false)}
      />
    );
  } else if (stage.kind === 'working') {
    view = (
      <div className="gallery-toast" role="status">
        <span>
          {stage.restoring ? 'Restoring' : 'Moving to the trash'}… {stage.done.toLocaleString()} of {stage.nodes.length.toLocaleString()}
        </span>
        <ProgressBar value={stage.done / stage.nodes.length} label={stage.restoring ? 'Restoring' : 'Moving to the trash'} />
      </div>
    );
  } else if (stage.kind === 'done') {
    const undo = stage.undo;
    view = (
      <div className="gallery-toast" role="status">
        <span>{stage.message}</span>
        {undo && (
          <button type="button" className="btn btn-quiet gallery-toast-action" onClick={() => void run(undo, true)}>
            Undo
          </button>
        )}
      </div>
    );
  }
  return { ask, view, busy: stage.kind === 'working' || stage.kind === 'confirm' };
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
