import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import type { Node } from '../../api/types.ts';
import { useSession } from '../../api/useSession.ts';
import { Button, IconButton } from '../../ui/Button.tsx';
import { plural } from '../../ui/format.ts';
import { Icon } from '../../ui/Icon.tsx';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import { AddToAlbumDialog } from '../albums/index.ts';
import { BackUpButtons, BackupCard, BackupStatus } from '../phone-backup/index.ts';
import { ShareDialog } from '../share/index.ts';
import { UploadButton } from '../upload/index.ts';
import { GalleryViewer } from './GalleryViewer.tsx';
import { useGalleryMonths, type GalleryMonth } from './queries.ts';
import { loadMonthItems } from './load.ts';
import { Timeline } from './Timeline.tsx';
import { useTrash } from './trash.tsx';
import { useLiveGallery } from './useLiveGallery.ts';
import { useGallerySelection } from './useSelection.ts';
import './gallery.css';

/**
 * Photos: every photo and video of the account, from every folder, newest taken first, by month.
 * `/gallery/<id>` opens one full screen over the timeline (so Back closes it, as on a phone).
 */
export function GalleryPage() {
  const { nodeId = null } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const session = useSession();
  const userId = session.kind === 'signed-in' ? session.user.id : '';
  const months = useGalleryMonths();
  const selection = useGallerySelection();
  const [lastViewed, setLastViewed] = useState<string | null>(null);
  // The share feature's dialog, drawn inside the viewer (which makes the rest of the page inert).
  const [sharing, setSharing] = useState<Node | null>(null);
  const [adding, setAdding] = useState<Node[] | null>(null);
  useLiveGallery(userId);

  const viewerOpenedHere = (location.state as { fromTimeline?: boolean } | null)?.fromTimeline === true;
  const open = useCallback(
    (node: Node) => {
      setLastViewed(node.id);
      navigate(`/gallery/${node.id}`, { state: { fromTimeline: true } });
    },
    [navigate],
  );
  const show = useCallback(
    (node: Node) => {
      setLastViewed(node.id);
      navigate(`/gallery/${node.id}`, { replace: true, state: location.state });
    },
    [navigate, location.state],
  );
  const close = useCallback(() => {
    if (viewerOpenedHere) navigate(-1);
    else navigate('/gallery', { replace: true });
  }, [navigate, viewerOpenedHere]);

  const viewing = useRef<{ node: Node | null; next: Node | null }>({ node: null, next: null });
  const remember = useCallback((node: Node | null, next: Node | null) => {
    viewing.current = { node, next };
  }, []);
  const trash = useTrash((trashed) => {
    selection.clear();
    // Trashed from the viewer: show the next photo, or go back to the timeline.
    const shown = viewing.current.node;
    if (nodeId && shown && trashed.some((node) => node.id === shown.id)) {
      const next = viewing.current.next;
      if (next) show(next);
      else close();
    }
  });

  const selectMonth = useCallback(
    async (month: GalleryMonth, select: boolean) => {
      const nodes = await loadMonthItems(queryClient, month.month, month.photos + month.videos);
      selection.set(nodes, select);
    },
    [queryClient, selection],
  );

  // Escape leaves selection mode (unless it is answering the trash question).
  useEffect(() => {
    if (!selection.active || nodeId || trash.busy) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && selection.clear();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [selection, nodeId, trash.busy]);

  const list = months.data ?? [];
  const photos = list.reduce((sum, m) => sum + m.photos, 0);
  const videos = list.reduce((sum, m) => sum + m.videos, 0);
  const total = photos + videos;

  return (
    <div className={selection.active ? 'gallery gallery-selecting' : 'gallery'}>
      {selection.active ? (
        <div className="topbar selection-bar" role="toolbar" aria-label="Selected photos">
          <IconButton icon="close" label="Stop selecting" onClick={selection.clear} />
          <h1 aria-live="polite">{selection.count === 0 ? 'Select photos' : `${selection.count.toLocaleString()} selected`}</h1>
          <Button icon="albums" disabled={selection.count === 0} onClick={() => setAdding(selection.items())}>
            Add to album
          </Button>
          <Button variant="danger" icon="trash" disabled={selection.count === 0 || trash.busy} onClick={() => trash.ask(selection.items())}>
            Move to trash
          </Button>
        </div>
      ) : (
        <div className="topbar">
          <div className="gallery-title">
            <h1>Photos</h1>
            {total > 0 && (
              <span className="muted gallery-total">
                {[photos > 0 && plural(photos, 'photo'), videos > 0 && plural(videos, 'video')].filter(Boolean).join(', ')}
              </span>
            )}
          </div>
          {total > 0 && (
            <Button icon="check" onClick={() => selection.start()} className="gallery-select">
              Select
            </Button>
          )}
          {total > 0 && <UploadButton parentId={null} />}
          <BackUpButtons inBar />
        </div>
      )}

      {!selection.active && (
        <>
          <nav aria-label="Views" className="chips">
            <Link className="chip" to="/albums">
              <Icon name="albums" /> Albums
            </Link>
          </nav>
          <BackupStatus />
          <BackupCard />
        </>
      )}

      {months.isPending && <Spinner label="Loading photos" />}
      {months.isError && <Notice tone="error">{months.error.message}</Notice>}
      {months.isSuccess && list.length === 0 && <EmptyGallery />}
      {list.length > 0 && (
        <Timeline
          months={list}
          selection={selection}
          onOpen={open}
          onSelectMonth={(month, select) => void selectMonth(month, select)}
          reveal={nodeId ? null : lastViewed}
        />
      )}

      {nodeId && (
        <GalleryViewer
          key="viewer"
          nodeId={nodeId}
          months={list}
          onShow={show}
          onClose={close}
          onTrash={(node) => trash.ask([node])}
          onShare={setSharing}
          onPosition={remember}
          overlay={
            <>
              {trash.view}
              {sharing && (
                <Suspense fallback={null}>
                  <ShareDialog node={sharing} onClose={() => setSharing(null)} />
                </Suspense>
              )}
            </>
          }
        />
      )}
      {!nodeId && trash.view}
      {adding && (
        <Suspense fallback={null}>
          <AddToAlbumDialog nodes={adding} onAdded={selection.clear} onClose={() => setAdding(null)} />
        </Suspense>
      )}
    </div>
  );
}

function EmptyGallery() {
  return (
    <div className="gallery-empty">
      <span className="gallery-empty-icon" aria-hidden="true">
        <Icon name="photo" />
      </span>
      <h2>No photos yet</h2>
      <p>Photos and videos you upload, into any folder, show up here, newest first and grouped by month.</p>
      <p className="muted">Use Upload to add them from this phone or computer.</p>
      <UploadButton parentId={null} />
    </div>
  );
}
