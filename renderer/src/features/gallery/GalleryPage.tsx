import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Suspense, useCallback, useState, type ReactNode } from 'react';
import { Link, useLocation, useParams, useSearchParams } from 'react-router';
import { personNamesQuery } from '../../api/queries.ts';
import type { Node } from '../../api/types.ts';
import { useSession } from '../../api/useSession.ts';
import { Button } from '../../ui/Button.tsx';
import { plural } from '../../ui/format.ts';
import { Icon } from '../../ui/Icon.tsx';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import {
  monthOfNode,
  PhotoActionBar,
  useEscapeEndsSelection,
  useGallerySelection,
  useTrash,
  useViewerRoute,
  warmPhotoDates,
  type Selection,
  type SelectionDialogs,
} from '../../kits/photos/index.ts';
import { AddPhotos, BackupCard, BackupStatus, CutBackupCard } from '../../kits/phone-backup/index.ts';
import { ShareDialog } from '../../kits/sharing/index.ts';
import { GalleryViewer } from './GalleryViewer.tsx';
import { PhotoSearch } from './PhotoSearch.tsx';
import { ScopeChoice } from './ScopeChoice.tsx';
import { useTimelineScope } from './scope.ts';
import { useGalleryMonths, type GalleryMonth } from './queries.ts';
import { loadMonthItems } from './load.ts';
import { Timeline } from './Timeline.tsx';
import { useLiveGallery } from './useLiveGallery.ts';
import { stepPast, useMoveToPrivate } from './useMoveToPrivate.tsx';
import { monthLabel } from './layout.ts';
import './gallery.css';

export interface GalleryPageProps {
  /** Add to album and Share for a selection: the albums' dialogs, given by the app. */
  albumDialogs: SelectionDialogs;
}

/**
 * Photos: every photo and video of the account, from every folder, newest taken first, by month;
 * or (Everyone's, the device's choice) with all the family shares with it, each marked with whose it is.
 * `/gallery/<id>` opens one full screen over the timeline (so Back closes it, as on a phone).
 * `?q=` is a search: the same timeline, of what it finds, and the viewer pages through those.
 */
// Loaded ahead of its first screen (App.tsx): the dates are ready before the photos arrive.
warmPhotoDates();

export function GalleryPage({ albumDialogs }: GalleryPageProps) {
  const { nodeId = null } = useParams();
  const location = useLocation();
  const session = useSession();
  const userId = session.kind === 'signed-in' ? session.user.id : '';
  const [params, setParams] = useSearchParams();
  const q = params.get('q')?.trim() ?? '';
  const [scope, setScope] = useTimelineScope();
  const months = useGalleryMonths('', scope);
  const found = useGalleryMonths(q, scope);
  const names = useQuery({ ...personNamesQuery, enabled: scope === 'family' });
  // Stable while the names are: every row of tiles compares it.
  const whose = useCallback(
    (node: Node) => (node.owner_id === userId ? undefined : (names.data?.get(node.owner_id) ?? 'someone in the family')),
    [names.data, userId],
  );
  const selection = useGallerySelection();
  const search = useCallback(
    (next: string) => setParams(next ? { q: next } : {}, { replace: true, state: location.state }),
    [setParams, location.state],
  );
  const viewer = useViewerRoute<Node>('/gallery', q ? `?${new URLSearchParams({ q })}` : '', 'fromTimeline');
  // The share feature's dialog, drawn inside the viewer (which makes the rest of the page inert).
  const [sharing, setSharing] = useState<Node | null>(null);
  useLiveGallery(userId);

  const trash = useTrash((trashed) => {
    selection.clear();
    // Trashed from the viewer: show the next photo, or go back to the timeline.
    const shown = viewer.viewing.current.item;
    if (nodeId && shown && trashed.some((node) => node.id === shown.id)) {
      const next = viewer.viewing.current.next;
      if (next) viewer.show(next);
      else viewer.close();
    }
  });
  const movePrivate = useMoveToPrivate((moved) => {
    selection.clear();
    if (nodeId) stepPast(viewer, moved);
  });
  const selectMonth = useSelectMonth(selection, q);
  useEscapeEndsSelection(selection, Boolean(nodeId) || trash.busy);

  const all = months.data ?? [];
  const photos = all.reduce((sum, m) => sum + m.photos, 0);
  const videos = all.reduce((sum, m) => sum + m.videos, 0);
  const results = q ? found.data : undefined;
  const list = q ? (results ?? []) : all;

  return (
    <div className={selection.active ? 'gallery gallery-selecting' : 'gallery'}>
      <PhotoActionBar
        selection={selection}
        me={userId}
        name={selectionName(selection.items(), q)}
        onTrash={(nodes, note) => trash.ask(nodes, note)}
        trashBusy={trash.busy}
        dialogs={albumDialogs}
        extra={[
          { label: 'Move to Private', short: 'Private', icon: 'lock', place: 'more', onClick: () => movePrivate.mutate(selection.items()) },
        ]}
      />
      {!nodeId && movePrivate.said}
      {!selection.active && (
        <GalleryHeader counts={{ photos, videos, loading: months.isPending }} q={q} onSearch={search} onSelect={() => selection.start()}>
          <ScopeChoice value={scope} onChange={setScope} />
        </GalleryHeader>
      )}

      {months.isPending && <Spinner label="Loading photos" />}
      {months.isError && <Notice tone="error">{months.error.message}</Notice>}
      {months.isSuccess && all.length === 0 && !q && <EmptyGallery everyone={scope === 'family'} />}
      {q && <SearchSummary q={q} results={results} pending={found.isPending} error={found.error} />}
      {list.length > 0 && (
        <Timeline
          key={`${scope}:${q}`}
          months={list}
          selection={selection}
          onOpen={viewer.open}
          onSelectMonth={(month, select) => void selectMonth(month, select)}
          reveal={nodeId ? null : viewer.lastViewed}
          q={q}
          label={q ? `Photos and videos found for “${q}”, newest first` : undefined}
          whose={scope === 'family' ? whose : undefined}
        />
      )}

      {nodeId && (
        <GalleryViewer
          key="viewer"
          nodeId={nodeId}
          months={list}
          onShow={viewer.show}
          onClose={viewer.close}
          onTrash={(node) => trash.ask([node])}
          onMovePrivate={(node) => movePrivate.mutate([node])}
          onShare={setSharing}
          onPosition={viewer.remember}
          q={q}
          whose={whose}
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
    </div>
  );
}

/** A month's heading starts selecting too: the bar is there at once, its photos as they load. */
function useSelectMonth(selection: Selection, q: string) {
  const queryClient = useQueryClient();
  return useCallback(
    async (month: GalleryMonth, select: boolean) => {
      if (select) selection.start();
      const nodes = await loadMonthItems(queryClient, month.month, month.photos + month.videos, q);
      selection.set(nodes, select);
    },
    [queryClient, selection, q],
  );
}

/**
 * What sits above the timeline when nothing is being selected: the title and count with Select,
 * Upload and the phone's backup; the search; whose photos (`children`) with the way to Albums;
 * and the backup's cards.
 */
function GalleryHeader({
  counts: { photos, videos, loading },
  q,
  onSearch,
  onSelect,
  children,
}: {
  /** `loading`: the months are still on their way; laid out as for a gallery with photos, the usual case, so nothing below moves when they come. */
  counts: { photos: number; videos: number; loading: boolean };
  q: string;
  onSearch: (q: string) => void;
  onSelect: () => void;
  children: ReactNode;
}) {
  const total = photos + videos;
  return (
    <>
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
          <Button icon="check" onClick={onSelect} className="gallery-select" aria-label="Select">
            <span className="gallery-select-words">Select</span>
          </Button>
        )}
        <AddPhotos withCard={!loading && total === 0 && !q} />
      </div>

      {(total > 0 || loading || q) && <PhotoSearch value={q} onSearch={onSearch} />}
      <div className="gallery-views">
        {children}
        {!q && (
          <nav aria-label="Views" className="chips">
            <Link className="chip" to="/albums">
              <Icon name="albums" /> Albums
            </Link>
          </nav>
        )}
      </div>
      {!q && (
        <>
          <BackupStatus />
          {/* The first backup's offer, for a phone with no photos here yet: once there are, the bar's button says it. */}
          {total === 0 && <BackupCard />}
          <CutBackupCard />
        </>
      )}
    </>
  );
}

/** What a zip or a new album of the selection is called: its month when it is one month's ("August 2024"). */
function selectionName(nodes: readonly Node[], q: string): string {
  const months = new Set(nodes.map(monthOfNode));
  if (months.size === 1) return monthLabel([...months][0]!);
  return q ? `Photos of ${q}` : 'Photos';
}

/** How many photos a search found, said in words (and to those who hear the screen), or plainly that it found none. */
function SearchSummary({
  q,
  results,
  pending,
  error,
}: {
  q: string;
  results: GalleryMonth[] | undefined;
  pending: boolean;
  error: Error | null;
}) {
  if (error) return <Notice tone="error">{error.message}</Notice>;
  if (pending || !results) return <Spinner label="Searching" />;
  const photos = results.reduce((sum, m) => sum + m.photos, 0);
  const videos = results.reduce((sum, m) => sum + m.videos, 0);
  if (photos + videos === 0) {
    return (
      <div className="gallery-empty" role="status">
        <span className="gallery-empty-icon" aria-hidden="true">
          <Icon name="search" />
        </span>
        <h2>Nothing found for “{q}”</h2>
        <p>
          Try a year (2019), a month (July 2021), a holiday (Christmas 2018), a town or country, a camera, a thing (dog, bike, boat), or
          part of a file’s name.
        </p>
      </div>
    );
  }
  return (
    <p className="search-summary" role="status">
      {[photos > 0 && plural(photos, 'photo'), videos > 0 && plural(videos, 'video')].filter(Boolean).join(' and ')} found for “{q}”
    </p>
  );
}

function EmptyGallery({ everyone }: { everyone: boolean }) {
  return (
    <div className="gallery-empty">
      <span className="gallery-empty-icon" aria-hidden="true">
        <Icon name="photo" />
      </span>
      <h2>No photos yet</h2>
      <p>
        Photos and videos you upload, into any folder, show up here, newest first and grouped by month
        {everyone ? ', with those the family shares with you' : ''}.
      </p>
      <p className="muted">Add them with the buttons above.</p>
    </div>
  );
}
