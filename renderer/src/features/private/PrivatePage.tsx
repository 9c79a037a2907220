import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api, data } from '../../api/client.ts';
import type { Answer, Node } from '../../api/types.ts';
import { Button } from '../../ui/Button.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import { PrivateItems } from './PrivateItems.tsx';
import { privateStatusQuery } from '../../api/queries.ts';
import { privateItemsQuery, privateKeys } from './queries.ts';
import { useLockWhenAway } from './useLockWhenAway.ts';
import { UnlockScreen } from './UnlockScreen.tsx';
import './private.css';

/**
 * Private: the person's locked folder. Locked, it asks for the password (or PIN); open, it shows
 * what is in it until the unlock runs out (the server's few minutes), "Lock now", or the tab is
 * left hidden for a while. `/private/<id>` shows one photo full screen.
 */
export function PrivatePage() {
  const status = useQuery(privateStatusQuery);
  const queryClient = useQueryClient();
  const until = status.data?.unlocked_until ?? null;
  const open = until !== null;
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
      <div className="topbar">
        <h1>
          <Icon name="lock" /> Private
        </h1>
        {open && (
          <Button icon="lock" onClick={() => lock.mutate()} disabled={lock.isPending}>
            Lock now
          </Button>
        )}
      </div>
      {status.isPending && <Spinner label="Loading" />}
      {status.isError && <Notice tone="error">{status.error.message}</Notice>}
      {status.data && !open && <UnlockScreen hasPin={status.data.has_pin} minutes={status.data.unlock_minutes} />}
      {status.data && open && status.data.folder_id && <OpenPrivate folderId={status.data.folder_id} until={until} />}
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

function OpenPrivate({ folderId, until }: { folderId: string; until: number }) {
  const items = useQuery(privateItemsQuery(folderId));
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { nodeId = null } = useParams();
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
          busy={moveOut.isPending}
        />
      )}
    </>
  );
}
