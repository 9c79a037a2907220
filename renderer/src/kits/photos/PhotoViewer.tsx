import { Suspense, useMemo, type ReactNode } from 'react';
import { loadThumbnail, thumbnailPath } from '../../api/thumbnails.ts';
import { Spinner } from '../../ui/Notice.tsx';
import { LazyViewer, type DetailLine, type ViewerAction, type ViewerItem, type ViewerSource } from '../viewer/index.ts';
import { useKeepCopy } from './keep.tsx';
import { downloadFile, renewExpiredMedia, useMediaLinks } from './media.ts';
import { peekThumbnail } from './thumbs.ts';

/**
 * What the viewer draws for the signed-in app's photos: the 1024 px preview (the grid's
 * thumbnail until it arrives) and the file itself through links made for the photo on screen
 * and two on each side, the ones the lightbox draws.
 */
export function usePhotoSource<T extends ViewerItem>(items: readonly T[], index: number): ViewerSource<T> {
  const media = useMediaLinks(index < 0 ? [] : items.slice(Math.max(0, index - 2), index + 3));
  return useMemo<ViewerSource<T>>(
    () => ({
      preview: (item) => loadThumbnail(thumbnailPath(item, 1024)),
      placeholder: (item) => (item.has_thumbnail ? peekThumbnail(thumbnailPath(item)) : null),
      media: (item) => media.url(item),
      mediaLoading: (item) => media.loading(item),
      video: (item) => media.video(item),
    }),
    [media],
  );
}

export interface PhotoViewerProps<T extends ViewerItem> {
  items: readonly T[];
  index: number;
  source: ViewerSource<T>;
  onShow: (item: T) => void;
  onClose: () => void;
  actions: ViewerAction<T>[];
  details: (item: T) => DetailLine[];
  overlay: ReactNode;
  closeLabel?: string;
}

/** The viewer of Photos and of an album, loaded when first opened; a download saves the file as it is. */
export function PhotoViewer<T extends ViewerItem>({
  items,
  index,
  source,
  onShow,
  onClose,
  actions,
  details,
  overlay,
  closeLabel,
}: PhotoViewerProps<T>) {
  // Someone else's photo may be kept as one's own (the action is offered only for those).
  const keep = useKeepCopy<T>();
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
        actions={[...actions, keep.action] as ViewerAction[]}
        details={(item) => details(item as T)}
        overlay={
          <>
            {overlay}
            {keep.view}
          </>
        }
        closeLabel={closeLabel}
      />
    </Suspense>
  );
}
