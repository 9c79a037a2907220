import { useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { Suspense, useCallback, useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { Link } from 'react-router';
import { api, data } from '../../api/client.ts';
import { loadThumbnail, thumbnailPath } from '../../api/thumbnails.ts';
import type { Node, NodePage } from '../../api/types.ts';
import { Spinner } from '../../ui/Notice.tsx';
import { PhotoAppearances } from '../../kits/sharing/index.ts';
import { LazyViewer, type DetailLine, type ViewerAction, type ViewerSource } from '../viewer/index.ts';
import { downloadFile, renewExpiredMedia, useMediaLinks } from './media.ts';
import { findLoaded, loadMonthItems as loadMonth } from './load.ts';
import { flatItems, galleryKeys, type GalleryMonth } from './queries.ts';
import { peekThumbnail } from './thumbs.ts';
import { monthOfNode } from './useSelection.ts';

type MonthData = InfiniteData<NodePage, unknown>;

export interface GalleryViewerProps {
  nodeId: string;
  months: GalleryMonth[];
  onShow: (node: Node) => void;
  onClose: () => void;
  onTrash: (node: Node) => void;
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
  overlay,
  onShare,
  onPosition,
  q = '',
  whose,
}: GalleryViewerProps) {
  const queryClient = useQueryClient();
  const version = useSyncExternalStore(
    useCallback((notify) => queryClient.getQueryCache().subscribe(notify), [queryClient]),
    () =>
      queryClient
        .getQueryCache()
        .findAll({ queryKey: galleryKeys.all })
        .reduce((sum, query) => sum + query.state.dataUpdatedAt, 0),
  );
  const loaded = useMemo(() => findLoaded(queryClient, nodeId), [queryClient, nodeId, version]); // eslint-disable-line react-hooks/exhaustive-deps
  const single = useQuery({
    queryKey: ['gallery', 'node', nodeId],
    enabled: loaded === null,
    queryFn: () => data(api.GET('/nodes/{id}', { params: { path: { id: nodeId } } })),
  });
  const node = loaded ?? single.data ?? null;
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
  useEffect(() => {
    onPosition(items[index] ?? null, items[index + 1] ?? items[index - 1] ?? null);
  }, [items, index, onPosition]);

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

  // The lightbox draws the photo on screen and two on each side.
  const media = useMediaLinks(index < 0 ? [] : items.slice(Math.max(0, index - 2), index + 3));
  const source = useMemo<ViewerSource<Node>>(
    () => ({
      preview: (item) => loadThumbnail(thumbnailPath(item, 1024)),
      placeholder: (item) => (item.has_thumbnail ? peekThumbnail(thumbnailPath(item)) : null),
      media: (item) => media.url(item),
      mediaLoading: (item) => media.loading(item),
      video: (item) => media.video(item),
    }),
    [media],
  );
  // Someone else's photo is theirs to share or trash: here it is looked at and downloaded.
  const actions = useMemo<ViewerAction<Node>[]>(
    () => [
      ...(onShare ? [{ label: 'Share', icon: 'share' as const, onClick: onShare, offered: mine }] : []),
      { label: 'Move to trash', icon: 'trash' as const, onClick: onTrash, offered: mine },
    ],
    [onShare, onTrash],
  );

  // Gone: trashed (here or on another device), or never this account's.
  if ((single.isError && loaded === null) || (loaded === null && single.data?.trashed_at)) {
    return (
      <div className="viewer-missing" role="alert">
        <p>This photo is not here any more: it may have been moved to the trash.</p>
        <Link className="btn" to="/gallery" replace>
          Back to photos
        </Link>
      </div>
    );
  }
  if (index < 0) return <Spinner label="Opening the photo" />;
  return (
    <Suspense fallback={<Spinner label="Opening the photo" />}>
      <LazyViewer
        items={items}
        index={index}
        onIndexChange={(next) => items[next] && onShow(items[next]!)}
        onClose={onClose}
        source={source as ViewerSource}
        // A link the server cannot make now (it is away) starts nothing; the app already says it cannot reach it.
        onDownload={(item) => void downloadFile(item).catch(() => undefined)}
        renewMedia={(item, failedUrl) => renewExpiredMedia(item, failedUrl)}
        actions={actions as ViewerAction[]}
        details={(item) => detailLines(item as Node, whose)}
        overlay={overlay}
      />
    </Suspense>
  );
}

const mine = (node: Node) => !node.shared;

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
