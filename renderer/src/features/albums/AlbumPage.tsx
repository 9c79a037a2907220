import { useCallback, useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { isApiError } from '../../api/client.ts';
import type { Node } from '../../api/types.ts';
import { useSession } from '../../api/useSession.ts';
import { Gone } from '../../ui/Gone.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import { useSelection } from '../../ui/useSelection.ts';
import { PhotoActionBar, useEscapeEndsSelection, useTrash, useViewerRoute, type PageAction } from '../../kits/photos/index.ts';
import type { ViewerAction } from '../../kits/viewer/index.ts';
import { albumDialogs } from './albumDialogs.ts';
import { AlbumDialogs, type Open } from './AlbumDialogs.tsx';
import { AlbumGrid } from './AlbumGrid.tsx';
import { AlbumTopBar } from './AlbumTopBar.tsx';
import { AlbumViewer } from './AlbumViewer.tsx';
import { albumKeys, useAlbum, useAlbumItems, type Album, type AlbumItem } from './queries.ts';
import { useAlbumEdits } from './useAlbumEdits.ts';
import { useLiveAlbums } from './useLiveAlbums.ts';
import './albums.css';

/**
 * One album: its photos and videos in the order they were taken, with the timeline's tiles and
 * viewer (`/albums/<id>/<photo>` opens one full screen, so Back closes it). Its owner renames
 * it, picks its cover, takes photos out, shares it and deletes it; a contributor uploads or
 * adds their own and takes those out; everyone sees who is in it, and a member may leave.
 */
export function AlbumPage() {
  useLiveAlbums();
  const { albumId = '', nodeId = null } = useParams();
  const navigate = useNavigate();
  const state = useSession();
  const me = state.kind === 'signed-in' ? state.user.id : '';
  const album = useAlbum(albumId);
  const items = useAlbumItems(albumId);
  const selection = useSelection<Node>();
  const [open, setOpen] = useState<Open>(null);
  const queryClient = useQueryClient();

  const loaded = useMemo(() => items.data?.pages.flatMap((page) => page.items) ?? [], [items.data]);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = items;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage({ cancelRefetch: false });
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const viewer = useViewerRoute<Node>(`/albums/${albumId}`, '', 'fromAlbum');
  const { viewing, show: showPhoto, close: closePhoto } = viewer;
  /** Taken out from the viewer: show the next photo, or go back to the album. */
  const afterTakenOut = (ids: readonly string[]) => {
    const shown = viewing.current.item;
    if (!nodeId || !shown || !ids.includes(shown.id)) return;
    const next = viewing.current.next;
    if (next && !ids.includes(next.id)) showPhoto(next);
    else closePhoto();
  };
  const edits = useAlbumEdits(albumId, me, selection, afterTakenOut);

  // One's own photos go to the trash from here too; the album follows where they live.
  const trash = useTrash((trashed) => {
    selection.clear();
    void queryClient.invalidateQueries({ queryKey: albumKeys.all });
    afterTakenOut(trashed.map((node) => node.id));
  });
  useEscapeEndsSelection(selection, Boolean(nodeId) || trash.busy);

  if (album.isPending) return <Spinner label="Opening the album" />;
  if (album.isError) return <AlbumGone message={isApiError(album.error, 'not_found') ? null : album.error.message} />;
  const current = album.data;
  const isOwner = current.role === 'owner';
  const canAdd = current.role !== 'viewer';
  /** The owner takes out anything; anyone else what they added. */
  const canRemove = (item: AlbumItem) => isOwner || item.added_by === me;
  const chosen = selection.items() as AlbumItem[];
  const total = current.photos + current.videos;

  const { pageActions, viewerActions } = albumActions({
    album: current,
    chosen,
    shownInViewer: loaded.find((item) => item.id === nodeId),
    canRemove,
    edits,
    count: selection.count,
  });
  const messages = <AlbumMessages said={edits.said} failure={edits.failure} onDismiss={() => edits.setSaid(null)} />;

  return (
    <div className={selection.active ? 'album-page gallery-selecting' : 'album-page'}>
      <PhotoActionBar
        selection={selection}
        me={me}
        name={current.name}
        extra={pageActions}
        trashPlace="more"
        onTrash={(nodes, note) => trash.ask(nodes, note)}
        trashBusy={trash.busy}
        dialogs={albumDialogs}
      />
      {!selection.active && <AlbumTopBar album={current} onSelect={() => selection.start()} onOpen={setOpen} onError={edits.setFailure} />}
      {selection.active && canAdd && !chosen.every(canRemove) && (
        <p className="muted album-hint">You can take out only the photos you added.</p>
      )}
      {!nodeId && messages}
      {!nodeId && trash.view}
      {!nodeId && open !== 'people' && edits.undoRemoval.view}

      {items.isError && <Notice tone="error">{items.error.message}</Notice>}
      {items.isSuccess && loaded.length === 0 && <EmptyAlbum canAdd={canAdd} />}
      {(items.isPending || loaded.length > 0) && (
        <AlbumGrid
          total={total}
          items={loaded}
          hasMore={hasNextPage || items.isPending}
          loadMore={loadMore}
          selection={selection}
          onOpen={viewer.open}
          reveal={nodeId ? null : viewer.lastViewed}
        />
      )}

      {nodeId && (
        <AlbumViewer
          albumId={albumId}
          nodeId={nodeId}
          items={loaded}
          hasMore={hasNextPage}
          loading={items.isPending || isFetchingNextPage}
          loadMore={loadMore}
          onShow={showPhoto}
          onClose={closePhoto}
          actions={viewerActions}
          onPosition={viewer.remember}
          overlay={messages}
        />
      )}

      <AlbumDialogs
        album={current}
        open={open}
        onOpen={setOpen}
        mutations={edits.mutations}
        onLeave={edits.leave}
        onGone={() => navigate('/albums', { replace: true })}
        undo={edits.undoRemoval}
      />
    </div>
  );
}

/**
 * What a page's own actions are, in the selection's bar and in the viewer: Take out (for those who
 * may add, of what they may take out) and Use as cover (the owner's).
 */
function albumActions({
  album,
  chosen,
  shownInViewer,
  canRemove,
  edits,
  count,
}: {
  album: Album;
  chosen: AlbumItem[];
  shownInViewer: AlbumItem | undefined;
  canRemove: (item: AlbumItem) => boolean;
  edits: ReturnType<typeof useAlbumEdits>;
  /** How many are chosen. */
  count: number;
}): { pageActions: PageAction[]; viewerActions: ViewerAction<AlbumItem>[] } {
  const isOwner = album.role === 'owner';
  const canAdd = album.role !== 'viewer';
  const viewerActions: ViewerAction<AlbumItem>[] = [
    ...(isOwner ? [{ label: 'Use as cover', icon: 'photo' as const, onClick: edits.makeCover }] : []),
    ...(shownInViewer && canRemove(shownInViewer)
      ? [{ label: 'Take out of album', icon: 'remove' as const, onClick: (item: AlbumItem) => edits.takeOut([item]) }]
      : []),
  ];
  const pageActions: PageAction[] = [
    ...(canAdd
      ? [
          {
            label: 'Take out',
            icon: 'remove' as const,
            place: 'bar' as const,
            disabled: count === 0 || !chosen.every(canRemove) || edits.mutations.removeItems.isPending,
            onClick: () => edits.takeOut(chosen),
          },
        ]
      : []),
    ...(isOwner
      ? [
          {
            label: 'Use as cover',
            icon: 'photo' as const,
            place: 'more' as const,
            disabled: count !== 1 || edits.mutations.update.isPending,
            onClick: () => edits.makeCover(chosen[0]!),
          },
        ]
      : []),
  ];
  return { pageActions, viewerActions };
}

function AlbumMessages({ said, failure, onDismiss }: { said: string | null; failure: string | null; onDismiss: () => void }) {
  return (
    <>
      {said && (
        <div className="album-toast" role="status">
          {said}
          <button type="button" className="album-toast-close" aria-label="Dismiss" onClick={onDismiss}>
            <Icon name="close" />
          </button>
        </div>
      )}
      {failure && <Notice tone="error">{failure}</Notice>}
    </>
  );
}

function EmptyAlbum({ canAdd }: { canAdd: boolean }) {
  return (
    <div className="albums-empty">
      <span className="gallery-empty-icon" aria-hidden="true">
        <Icon name="albums" />
      </span>
      <h2>Nothing here yet</h2>
      {canAdd ? (
        <p>
          Upload photos from this device, or go to <Link to="/gallery">Photos</Link>, select some and choose Add to album.
        </p>
      ) : (
        <p>Photos added to this album show up here.</p>
      )}
    </div>
  );
}

/** Deleted, or no longer shared with this account (`message` null), or not reachable now. */
function AlbumGone({ message }: { message: string | null }) {
  return (
    <Gone title="This album is not here" back="/albums" backLabel="Back to albums">
      {message ?? 'It was deleted, or it is no longer shared with you.'}
    </Gone>
  );
}
