import { useQuery } from '@tanstack/react-query';
import { Suspense, useEffect, type ReactNode } from 'react';
import { personNamesQuery } from '../../api/queries.ts';
import { Gone } from '../../ui/Gone.tsx';
import { Spinner } from '../../ui/Notice.tsx';
import { PhotoViewer, usePhotoSource } from '../../kits/photos/index.ts';
import type { DetailLine, ViewerAction } from '../../kits/viewer/index.ts';
import { PhotoAppearances } from '../../kits/sharing/index.ts';
import type { AlbumItem } from './queries.ts';

export interface AlbumViewerProps {
  albumId: string;
  nodeId: string;
  items: readonly AlbumItem[];
  hasMore: boolean;
  loading: boolean;
  loadMore: () => void;
  onShow: (item: AlbumItem) => void;
  onClose: () => void;
  /** What the caller may do with the photo on screen (use it as the cover, take it out). */
  actions: ViewerAction<AlbumItem>[];
  /** The photo on screen and the one to show if it goes (the next, else the previous). */
  onPosition: (item: AlbumItem | null, next: AlbumItem | null) => void;
  overlay: ReactNode;
}

/**
 * The album's photos full screen, in the album's order: the loaded pages are the run, and the
 * next page is listed as the swipe nears its end (or until a photo opened by its address is found).
 */
export function AlbumViewer({
  albumId,
  nodeId,
  items,
  hasMore,
  loading,
  loadMore,
  onShow,
  onClose,
  actions,
  onPosition,
  overlay,
}: AlbumViewerProps) {
  const index = items.findIndex((item) => item.id === nodeId);
  const names = useQuery(personNamesQuery);
  useEffect(() => {
    onPosition(items[index] ?? null, items[index + 1] ?? items[index - 1] ?? null);
  }, [items, index, onPosition]);
  useEffect(() => {
    if (loading || !hasMore) return;
    if (index < 0 || index > items.length - 4) loadMore();
  }, [index, items.length, hasMore, loading, loadMore]);

  const source = usePhotoSource(items, index);
  const nameOf = (id: string) => names.data?.get(id);
  // Someone else's: who added it, and whom it reaches here when its owner did not put it here.
  // One's own: every album and link showing it, for its owner to change.
  const details = (item: AlbumItem): DetailLine[] =>
    item.shared
      ? [
          { label: 'Added by', value: nameOf(item.added_by) ?? 'Someone in the family' },
          ...(item.shared_with_album
            ? []
            : [
                {
                  label: 'Seen here by',
                  value: `Only the people ${nameOf(item.owner_id) ?? 'its owner'} shared it with (not the album’s link)`,
                },
              ]),
        ]
      : [
          {
            label: 'Albums and links',
            value: (
              <Suspense fallback={<span>…</span>}>
                <PhotoAppearances nodeId={item.id} />
              </Suspense>
            ),
          },
        ];

  if (index < 0) {
    if (hasMore || loading) return <Spinner label="Opening the photo" />;
    return (
      <Gone className="viewer-missing" back={`/albums/${albumId}`} backLabel="Back to the album">
        This photo is not in the album any more: it may have been taken out, or moved to the trash.
      </Gone>
    );
  }
  return (
    <PhotoViewer
      items={items}
      index={index}
      source={source}
      onShow={onShow}
      onClose={onClose}
      actions={actions}
      details={details}
      overlay={overlay}
      closeLabel="Back to the album"
    />
  );
}
