import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api, data } from '../../api/client.ts';
import type { Answer, Node } from '../../api/types.ts';
import { Button } from '../../ui/Button.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import { SelectionBar, useEscapeEndsSelection, useGallerySelection, useTrash, type Selection } from '../../kits/photos/index.ts';
import { PrivateItems } from './PrivateItems.tsx';
import { privateStatusQuery } from '../../api/queries.ts';
import { privateItemsQuery, privateKeys } from './queries.ts';
import { useLockWhenAway } from './useLockWhenAway.ts';
import { useMoveOutMany } from './useMoveOutMany.tsx';
import { UnlockScreen } from './UnlockScreen.tsx';
import './private.css';

/**
 * Private: the person's locked folder. Locked, it asks for the password (or PIN); open, it shows
 * what is in it until the unlock runs out (the server's few minutes), "Lock now", or the tab is
 * left hidden for a while. `/private/<id>` shows one photo full screen. Select (or a long press)
 * chooses several, to move out or to the trash at once, as in Photos.
 */
export function PrivatePage() {
  const status = useQuery(privateStatusQuery);
  const queryClient = useQueryClient();
  const until = status.data?.unlocked_until ?? null;
  const open = until !== null;
  const selection = useGallerySelection();
  const folderId = status.data?.folder_id ?? null;
  const items = useQuery({ ...privateItemsQuery(folderId ?? ''), enabled: open && folderId !== null });
  // Locked, nothing stays chosen (what was shown is gone).
  const { active: selecting, clear: endSelection } = selection;
  useEffect(() => {
    if (!open && selecting) endSelection();
  }, [open, selecting, endSelection]);
  // When the unlock runs out, what was shown goes at once.
  useEffect(() => {
    if (until === null) return;
    const timer = setTimeout(() => lockedHere(queryClient), Math.max(0, until - Date.now()) + 250);
    return () => clearTimeout(timer);
  }, [until, queryClient]);
  const lock = useMutation({
    mutationFn: () => data(api.POST('/private/lock')),
    onSuccess: () => lockedHere(queryClient),
  });
  const { mutate: lockNow } = lock;
  useLockWhenAway(open, lockNow);

  return (
    <div className="private-page">
      {!selection.active && (
        <div className="topbar">
          <h1>
            <Icon name="lock" /> Private
          </h1>
          {open && (items.data?.length ?? 0) > 0 && (
            <Button icon="check" className="private-select" onClick={() => selection.start()} aria-label="Select">
              <span className="private-select-words">Select</span>
            </Button>
          )}
          {open && (
            <Button icon="lock" onClick={() => lock.mutate()} disabled={lock.isPending}>
              Lock now
            </Button>
          )}
        </div>
      )}
      {status.isPending && <Spinner label="Loading" />}
      {status.isError && <Notice tone="error">{status.error.message}</Notice>}
      {status.data && !open && <UnlockScreen hasPin={status.data.has_pin} minutes={status.data.unlock_minutes} />}
      {status.data && open && status.data.folder_id && <OpenPrivate folderId={status.data.folder_id} until={until} selection={selection} />}
    </div>
  );
}

/** Locked: what was shown is dropped from memory at once, and the server is asked how things stand. */
function lockedHere(queryClient: QueryClient): void {
  queryClient.setQueryData<PrivateStatus>(privateKeys.status, (old) => old && { ...old, unlocked_until: null });
  queryClient.removeQueries({ queryKey: ['private', 'items'] });
  void queryClient.invalidateQueries({ queryKey: privateKeys.status });
}

type PrivateStatus = Answer<'/private', 'get'>;

function OpenPrivate({ folderId, until, selection }: { folderId: string; until: number; selection: Selection }) {
  const items = useQuery(privateItemsQuery(folderId));
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { nodeId = null } = useParams();
  const many = useMoveOutMany(selection.clear);
  // Restored by Undo, they come back into Private: its list is asked again either way.
  const trash = useTrash(selection.clear, () => void queryClient.invalidateQueries({ queryKey: ['private', 'items'] }));
  useEscapeEndsSelection(selection, Boolean(nodeId) || trash.busy);
  const moveOut = useMutation({
    mutationFn: async (node: Node) => {
      const moved = await data(api.DELETE('/nodes/{id}/private', { params: { path: { id: node.id } } }));
      // Back where it came from (or the top of My files): the notice names the place.
      if (moved.parent_id === null) return 'My files';
      return (await data(api.GET('/nodes/{id}', { params: { path: { id: moved.parent_id } } }))).name;
    },
    // Back in My files and Photos: every view of files is asked again.
    onSuccess: () => void queryClient.invalidateQueries(),
  });
  const locksAt = new Date(until).toLocaleTimeString([], { hour: 'numeric', minute: '2-digit' });
  return (
    <>
      <SelectionBar
        selection={selection}
        label="Selected in Private"
        empty="Select photos or files"
        actions={[
          {
            label: 'Move out of Private',
            short: 'Move out',
            icon: 'moveTo',
            place: 'bar',
            disabled: many.busy,
            onClick: () => many.moveOut(selection.items()),
          },
          {
            label: 'Move to trash',
            short: 'Trash',
            brief: true,
            icon: 'trash',
            danger: true,
            place: 'bar',
            disabled: trash.busy,
            onClick: () => trash.ask(selection.items()),
          },
        ]}
      />
      <p className="private-note">Only you can see what is here. It locks again at {locksAt}.</p>
      {moveOut.isError && <Notice tone="error">{moveOut.error.message}</Notice>}
      {moveOut.isSuccess && <Notice>Moved to {moveOut.data}.</Notice>}
      {items.isPending && <Spinner label="Loading" />}
      {items.isError && <Notice tone="error">{items.error.message}</Notice>}
      {items.data?.length === 0 && (
        <p className="private-empty">Nothing here yet. Choose “Move to Private” on a photo or a file to keep it here.</p>
      )}
      {items.data && items.data.length > 0 && (
        <PrivateItems
          items={items.data}
          viewing={nodeId}
          onOpen={(node) => void navigate(`/private/${node.id}`)}
          onShow={(node) => void navigate(`/private/${node.id}`, { replace: true })}
          onClose={() => void navigate('/private')}
          onMoveOut={(node) => {
            if (nodeId === node.id) void navigate('/private', { replace: true });
            moveOut.mutate(node);
          }}
          busy={moveOut.isPending || many.busy}
          selection={selection}
        />
      )}
      {!nodeId && many.view}
      {!nodeId && trash.view}
    </>
  );
}
