import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { isApiError } from '../../api/client.ts';
import type { Node } from '../../api/types.ts';
import { useSession } from '../../api/useSession.ts';
import { Button, IconButton } from '../../ui/Button.tsx';
import { ConfirmDialog, Dialog } from '../../ui/Dialog.tsx';
import { Icon, type IconName } from '../../ui/Icon.tsx';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import { useSelection } from '../../ui/useSelection.ts';
import { useTrash } from '../gallery/index.ts';
import { PhotoActionBar } from '../photo-actions/index.ts';
import type { ViewerAction } from '../viewer/index.ts';
import { AlbumGrid } from './AlbumGrid.tsx';
import { AlbumUploadButton } from './AlbumUploadButton.tsx';
import { AlbumViewer } from './AlbumViewer.tsx';
import { NameDialog } from './NameDialog.tsx';
import { AlbumShareDialog } from './AlbumShareDialog.tsx';
import { albumKeys, useAlbum, useAlbumItems, useAlbumMutations, type Album, type AlbumItem } from './queries.ts';
import { useLiveAlbums } from './useLiveAlbums.ts';
import { countWords, selectionWords, takenRange } from './words.ts';
import './albums.css';

type Open = 'people' | 'more' | 'rename' | 'delete' | 'leave' | null;

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
  const location = useLocation();
  const state = useSession();
  const me = state.kind === 'signed-in' ? state.user.id : '';
  const album = useAlbum(albumId);
  const items = useAlbumItems(albumId);
  const selection = useSelection<Node>();
  const mutations = useAlbumMutations(albumId);
  const [open, setOpen] = useState<Open>(null);
  const [said, setSaid] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [lastViewed, setLastViewed] = useState<string | null>(null);
  const queryClient = useQueryClient();

  const loaded = useMemo(() => items.data?.pages.flatMap((page) => page.items) ?? [], [items.data]);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = items;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage({ cancelRefetch: false });
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const viewerOpenedHere = (location.state as { fromAlbum?: boolean } | null)?.fromAlbum === true;
  const openPhoto = useCallback(
    (node: Node) => {
      setLastViewed(node.id);
      navigate(`/albums/${albumId}/${node.id}`, { state: { fromAlbum: true } });
    },
    [navigate, albumId],
  );
  const showPhoto = useCallback(
    (node: Node) => {
      setLastViewed(node.id);
      navigate(`/albums/${albumId}/${node.id}`, { replace: true, state: location.state });
    },
    [navigate, albumId, location.state],
  );
  const closePhoto = useCallback(() => {
    if (viewerOpenedHere) navigate(-1);
    else navigate(`/albums/${albumId}`, { replace: true });
  }, [navigate, viewerOpenedHere, albumId]);
  const viewing = useRef<{ item: AlbumItem | null; next: AlbumItem | null }>({ item: null, next: null });
  const remember = useCallback((item: AlbumItem | null, next: AlbumItem | null) => {
    viewing.current = { item, next };
  }, []);
  /** Taken out from the viewer: show the next photo, or go back to the album. */
  const afterTakenOut = useCallback(
    (ids: readonly string[]) => {
      const shown = viewing.current.item;
      if (!nodeId || !shown || !ids.includes(shown.id)) return;
      const next = viewing.current.next;
      if (next && !ids.includes(next.id)) showPhoto(next);
      else closePhoto();
    },
    [nodeId, showPhoto, closePhoto],
  );

  // One's own photos go to the trash from here too; the album follows where they live.
  const trash = useTrash((trashed) => {
    selection.clear();
    void queryClient.invalidateQueries({ queryKey: albumKeys.all });
    afterTakenOut(trashed.map((node) => node.id));
  });

  // Escape leaves selection mode (unless it is answering the trash question).
  useEffect(() => {
    if (!selection.active || nodeId || trash.busy) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && selection.clear();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [selection, nodeId, trash.busy]);

  if (album.isPending) return <Spinner label="Opening the album" />;
  if (album.isError) return <AlbumGone message={isApiError(album.error, 'not_found') ? null : album.error.message} />;
  const current = album.data;
  const isOwner = current.role === 'owner';
  const canAdd = current.role !== 'viewer';
  /** The owner takes out anything; anyone else what they added. */
  const canRemove = (item: AlbumItem) => isOwner || item.added_by === me;
  const chosen = selection.items() as AlbumItem[];
  const total = current.photos + current.videos;

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

  const shownInViewer = loaded.find((item) => item.id === nodeId);
  const viewerActions: ViewerAction<AlbumItem>[] = [
    ...(isOwner ? [{ label: 'Use as cover', icon: 'photo' as const, onClick: makeCover }] : []),
    ...(shownInViewer && canRemove(shownInViewer)
      ? [{ label: 'Take out of album', icon: 'remove' as const, onClick: (item: AlbumItem) => takeOut([item]) }]
      : []),
  ];

  const messages = (
    <>
      {said && (
        <div className="album-toast" role="status">
          {said}
          <button type="button" className="album-toast-close" aria-label="Dismiss" onClick={() => setSaid(null)}>
            <Icon name="close" />
          </button>
        </div>
      )}
      {failure && <Notice tone="error">{failure}</Notice>}
    </>
  );

  return (
    <div className={selection.active ? 'album-page gallery-selecting' : 'album-page'}>
      <PhotoActionBar
        selection={selection}
        me={me}
        name={current.name}
        extra={[
          ...(canAdd
            ? [
                {
                  label: 'Take out',
                  icon: 'remove' as const,
                  place: 'bar' as const,
                  disabled: selection.count === 0 || !chosen.every(canRemove) || mutations.removeItems.isPending,
                  onClick: () => takeOut(chosen),
                },
              ]
            : []),
          ...(isOwner
            ? [
                {
                  label: 'Use as cover',
                  icon: 'photo' as const,
                  place: 'more' as const,
                  disabled: selection.count !== 1 || mutations.update.isPending,
                  onClick: () => makeCover(chosen[0]!),
                },
              ]
            : []),
        ]}
        trashPlace="more"
        onTrash={(nodes, note) => trash.ask(nodes, note)}
        trashBusy={trash.busy}
      />
      {!selection.active && (
        <div className="topbar album-topbar">
          <IconButton icon="back" label="Back to albums" onClick={() => navigate('/albums')} />
          <div className="album-title">
            <h1>{current.name}</h1>
            <AlbumLine album={current} />
          </div>
          <div className="album-actions">
            {total > 0 && (
              <Button icon="check" className="album-select" onClick={() => selection.start()}>
                Select
              </Button>
            )}
            {canAdd && <AlbumUploadButton album={current} onError={setFailure} />}
            <Button icon="people" onClick={() => setOpen('people')}>
              {isOwner ? 'Share' : 'People'}
            </Button>
          </div>
          <IconButton icon="more" label="More for this album" className="album-more" onClick={() => setOpen('more')} />
        </div>
      )}
      {selection.active && canAdd && !chosen.every(canRemove) && (
        <p className="muted album-hint">You can take out only the photos you added.</p>
      )}
      {!nodeId && messages}
      {!nodeId && trash.view}

      {items.isError && <Notice tone="error">{items.error.message}</Notice>}
      {items.isSuccess && loaded.length === 0 && <EmptyAlbum canAdd={canAdd} />}
      {(items.isPending || loaded.length > 0) && (
        <AlbumGrid
          total={total}
          items={loaded}
          hasMore={hasNextPage || items.isPending}
          loadMore={loadMore}
          selection={selection}
          onOpen={openPhoto}
          reveal={nodeId ? null : lastViewed}
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
          onPosition={remember}
          overlay={messages}
        />
      )}

      {open === 'people' && <AlbumShareDialog album={current} onLeave={() => setOpen('leave')} onClose={() => setOpen(null)} />}
      {open === 'more' && (
        <Dialog title={current.name} onClose={() => setOpen(null)}>
          <ul className="menu" aria-label={`Actions for ${current.name}`}>
            {isOwner ? (
              <>
                <MenuItem icon="edit" text="Rename" onClick={() => setOpen('rename')} />
                <MenuItem icon="people" text="Share with family" onClick={() => setOpen('people')} />
                <MenuItem icon="trash" text="Delete album" danger onClick={() => setOpen('delete')} />
              </>
            ) : (
              <>
                <MenuItem icon="people" text="People in this album" onClick={() => setOpen('people')} />
                <MenuItem icon="logout" text="Leave album" danger onClick={() => setOpen('leave')} />
              </>
            )}
          </ul>
        </Dialog>
      )}
      {open === 'rename' && (
        <NameDialog
          title="Rename album"
          action="Rename"
          initial={current.name}
          busy={mutations.update.isPending}
          error={mutations.update.error?.message ?? null}
          onSubmit={(name) => mutations.update.mutate({ name }, { onSuccess: () => setOpen(null) })}
          onClose={() => {
            mutations.update.reset();
            setOpen(null);
          }}
        />
      )}
      {open === 'delete' && (
        <ConfirmDialog
          title={`Delete “${current.name}”?`}
          message={
            <>
              The album goes{current.members > 0 ? ', for everyone it is shared with too' : ''}. Its photos and videos stay where they are,
              in Photos and in their folders.
              {mutations.remove.error && <Notice tone="error">{mutations.remove.error.message}</Notice>}
            </>
          }
          confirm="Delete album"
          danger
          busy={mutations.remove.isPending}
          onConfirm={() => mutations.remove.mutate(undefined, { onSuccess: () => navigate('/albums', { replace: true }) })}
          onClose={() => setOpen(null)}
        />
      )}
      {open === 'leave' && (
        <ConfirmDialog
          title={`Leave “${current.name}”?`}
          message={`You will no longer see it. The photos you added to it leave with you (they stay in your Photos). ${current.owner_name} can add you again.`}
          confirm="Leave album"
          danger
          busy={mutations.removeMember.isPending}
          onConfirm={leave}
          onClose={() => setOpen(null)}
        />
      )}
    </div>
  );
}

/** "12 photos · 3 – 10 Aug 2024 · Shared by Emma · You can add photos". */
function AlbumLine({ album }: { album: Album }) {
  const whose =
    album.role === 'owner'
      ? album.members > 0
        ? `Shared with ${album.members === 1 ? '1 person' : `${album.members} people`}`
        : null
      : `Shared by ${album.owner_name}${album.role === 'contributor' ? ' · You can add photos' : ''}`;
  return (
    <span className="muted album-line">
      {[countWords(album.photos, album.videos), takenRange(album.first_taken_at, album.last_taken_at), whose].filter(Boolean).join(' · ')}
    </span>
  );
}

function MenuItem({ icon, text, onClick, danger }: { icon: IconName; text: string; onClick: () => void; danger?: boolean }) {
  return (
    <li>
      <button type="button" className={danger ? 'danger' : undefined} onClick={onClick}>
        <Icon name={icon} />
        {text}
      </button>
    </li>
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
    <div className="albums-empty" role="alert">
      <h1>This album is not here</h1>
      <p>{message ?? 'It was deleted, or it is no longer shared with you.'}</p>
      <Link className="btn" to="/albums" replace>
        Back to albums
      </Link>
    </div>
  );
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
