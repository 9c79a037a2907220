import { useQuery, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { Suspense, useCallback, useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { Link } from 'react-router';
import { api, data } from '../../api/client.ts';
import type { Node, NodePage } from '../../api/types.ts';
import { Gone } from '../../ui/Gone.tsx';
import { Spinner } from '../../ui/Notice.tsx';
import { monthOfNode, PhotoViewer, usePhotoSource } from '../../kits/photos/index.ts';
import type { DetailLine, ViewerAction } from '../../kits/viewer/index.ts';
import { PhotoAppearances } from '../../kits/sharing/index.ts';
import { findLoaded, loadMonthItems as loadMonth } from './load.ts';
import { flatItems, galleryKeys, type GalleryMonth } from './queries.ts';

type MonthData = InfiniteData<NodePage, unknown>;

export interface GalleryViewerProps {
  nodeId: string;
  months: GalleryMonth[];
  onShow: (node: Node) => void;
  onClose: () => void;
  onTrash: (node: Node) => void;
  /** "Move to Private", for one's own photo. */
  onMovePrivate?: ((node: Node) => void) | undefined;
  /** The trash question and message, drawn inside the viewer. */
  overlay: ReactNode;
  /** The share feature's own dialog for a node, when the app has one. */
  onShare?: ((node: Node) => void) | undefined;
  /** The photo on screen and the one to show if it goes (the next, else the previous). */
  onPosition: (node: Node | null, next: Node | null) => void;
  /** Opened from a search: it pages through what the search found ('' is the whole gallery). */
  q?: string;
  /** Whose a photo is, when it is someone else's: its Details say so. */
  whose?: (node: Node) => string | undefined;
}

/**
 * The viewer over the timeline: it pages through the loaded months as one run of photos, newest
 * first, loading the next month (or the next page of a long one) as the swipe nears its end.
 * Only whole months join the run before another, so no photo is ever skipped.
 */
export function GalleryViewer({
  nodeId,
  months,
  onShow,
  onClose,
  onTrash,
  onMovePrivate,
  overlay,
  onShare,
  onPosition,
  q = '',
  whose,
}: GalleryViewerProps) {
  const queryClient = useQueryClient();
  const version = useGalleryVersion(queryClient);
  const loaded = useMemo(() => findLoaded(queryClient, nodeId), [queryClient, nodeId, version]); // eslint-disable-line react-hooks/exhaustive-deps
  const single = useQuery({
    queryKey: ['gallery', 'node', nodeId],
    enabled: loaded === null,
    queryFn: () => data(api.GET('/nodes/{id}', { params: { path: { id: nodeId } } })),
  });
  const node = loaded ?? single.data ?? null;
  const { items, index } = useHeldRun(useRun({ queryClient, version, nodeId, node, months, q }), nodeId);
  useEffect(() => {
    onPosition(items[index] ?? null, items[index + 1] ?? items[index - 1] ?? null);
  }, [items, index, onPosition]);

  // The lightbox draws the photo on screen and two on each side.
  const source = usePhotoSource(items, index);
  // Someone else's photo is theirs to share or trash: here it is looked at and downloaded.
  const actions = useMemo<ViewerAction<Node>[]>(
    () => [
      ...(onShare ? [{ label: 'Share', icon: 'share' as const, onClick: onShare, offered: mine }] : []),
      ...(onMovePrivate ? [{ label: 'Move to Private', icon: 'lock' as const, onClick: onMovePrivate, offered: mine }] : []),
      { label: 'Move to trash', icon: 'trash' as const, onClick: onTrash, offered: mine },
    ],
    [onShare, onTrash, onMovePrivate],
  );

  // Gone: trashed (here or on another device), or never this account's.
  if ((single.isError && loaded === null) || (loaded === null && single.data?.trashed_at)) {
    return (
      <Gone className="viewer-missing" back="/gallery" backLabel="Back to photos">
        This photo is not here any more: it may have been moved to the trash.
      </Gone>
    );
  }
  if (index < 0) return <Spinner label="Opening the photo" />;
  return (
    <PhotoViewer
      items={items}
      index={index}
      source={source}
      onShow={onShow}
      onClose={onClose}
      actions={actions}
      details={(item) => detailLines(item, whose)}
      overlay={overlay}
    />
  );
}

const mine = (node: Node) => !node.shared;

/**
 * The run on screen, held while the photo shown is between runs: a new date moves it to a month
 * not loaded yet, and for that moment the run does not hold it. Without this the viewer would
 * close and open again around the same photo, losing what was open over it (its Edit panel).
 */
function useHeldRun(run: { items: Node[]; index: number }, nodeId: string): { items: Node[]; index: number } {
  const [held, setHeld] = useState(run);
  if (run.index >= 0 && (held.items !== run.items || held.index !== run.index)) setHeld(run);
  if (run.index < 0 && held.items[held.index]?.id === nodeId) return held;
  return run;
}

/** Changes whenever any of the gallery's queries gets new data: the run is read from them again. */
function useGalleryVersion(queryClient: QueryClient): number {
  return useSyncExternalStore(
    useCallback((notify) => queryClient.getQueryCache().subscribe(notify), [queryClient]),
    () =>
      queryClient
        .getQueryCache()
        .findAll({ queryKey: galleryKeys.all })
        .reduce((sum, query) => sum + query.state.dataUpdatedAt, 0),
  );
}

/**
 * The run of photos the viewer pages through: the whole months loaded around the photo's own,
 * kept long enough on both sides of the photo on screen.
 */
function useRun({
  queryClient,
  version,
  nodeId,
  node,
  months,
  q,
}: {
  queryClient: QueryClient;
  version: number;
  nodeId: string;
  node: Node | null;
  months: GalleryMonth[];
  q: string;
}): { items: Node[]; index: number } {
  const home = node ? monthOfNode(node) : null;
  const [span, setSpan] = useState<{ from: string; to: string } | null>(null);
  const run = span && home && span.from >= home && span.to <= home ? span : home ? { from: home, to: home } : null;

  const items = useMemo(() => {
    if (!run) return [];
    const out: Node[] = [];
    for (const month of months) {
      if (month.month > run.from || month.month < run.to) continue;
      const value = queryClient.getQueryData<MonthData>(galleryKeys.month(month.month, q));
      if (value) out.push(...flatItems(value.pages));
    }
    return out;
  }, [months, run?.from, run?.to, queryClient, version, q]); // eslint-disable-line react-hooks/exhaustive-deps
  const index = items.findIndex((item) => item.id === nodeId);

  // Keep the run long enough on both sides of the photo on screen.
  useEffect(() => {
    if (!run || !node) return;
    const at = months.findIndex((m) => m.month === run.to);
    const first = months.findIndex((m) => m.month === run.from);
    if (at < 0 || first < 0) return;
    const last = months[at]!;
    const lastCount = last.photos + last.videos;
    const lastValue = queryClient.getQueryData<MonthData>(galleryKeys.month(last.month, q));
    const lastLoaded = lastValue ? flatItems(lastValue.pages).length : 0;
    if (index < 0) {
      // Not in the run yet: its own month is loading (or the photo is further in it).
      void loadMonth(queryClient, run.to, lastLoaded + 1, q);
      return;
    }
    if (index > items.length - 4) {
      if (lastLoaded < lastCount) void loadMonth(queryClient, last.month, lastLoaded + 1, q);
      else if (months[at + 1]) {
        const older = months[at + 1]!.month;
        void loadMonth(queryClient, older, 1, q).then(() => setSpan({ from: run.from, to: older }));
      }
    }
    if (index < 3 && first > 0) {
      const newer = months[first - 1]!;
      void loadMonth(queryClient, newer.month, newer.photos + newer.videos, q).then(() => setSpan({ from: newer.month, to: run.to }));
    }
  }, [index, items.length, run?.from, run?.to, months, node, queryClient, q]); // eslint-disable-line react-hooks/exhaustive-deps
  return { items, index };
}

/**
 * Whose it is, when someone else's; and the folder it is in, when the account may open that
 * folder. One's own says where else it is shown: the albums and links its owner alone may change.
 */
function detailLines(node: Node, whose: GalleryViewerProps['whose']): DetailLine[] {
  if (!node.shared) {
    return [
      { label: 'Folder', value: <FolderName node={node} /> },
      {
        label: 'Albums and links',
        value: (
          <Suspense fallback={<span>…</span>}>
            <PhotoAppearances nodeId={node.id} />
          </Suspense>
        ),
      },
    ];
  }
  return [{ label: 'Shared by', value: <SharedBy node={node} name={whose?.(node) ?? 'Someone in the family'} /> }];
}

/** The folder a photo is in, as a link to it. */
function FolderName({ node }: { node: Node }) {
  const path = usePath(node);
  if (node.parent_id === null) return <Link to="/files">My files</Link>;
  if (!path.data) return <span>…</span>;
  const folders = path.data.slice(0, -1);
  return <Link to={`/files/${node.parent_id}`}>{['My files', ...folders.map((folder) => folder.name)].join(' › ')}</Link>;
}

/**
 * Someone else's photo: whose, and the folder they shared it in when it came that way (a path
 * that starts at the folder shared). From an album or a partner, the name alone: their folders
 * are not the viewer's to know.
 */
function SharedBy({ node, name }: { node: Node; name: string }) {
  const path = usePath(node);
  const folders = path.data?.slice(0, -1) ?? [];
  if (folders.length === 0 || node.parent_id === null) return <span>{name}</span>;
  return (
    <span>
      {name}, in <Link to={`/files/${node.parent_id}`}>{folders.map((folder) => folder.name).join(' › ')}</Link>
    </span>
  );
}

function usePath(node: Node) {
  return useQuery({
    queryKey: ['gallery', 'path', node.id],
    queryFn: async () => (await data(api.GET('/nodes/{id}/path', { params: { path: { id: node.id } } }))).items,
  });
}
