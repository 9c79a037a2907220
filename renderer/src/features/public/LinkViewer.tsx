import { Suspense, useMemo, type ReactNode } from 'react';
import { Spinner } from '../../ui/Notice.tsx';
import { saveFrom } from '../../api/saveFrom.ts';
import {
  isVideo,
  LazyViewer,
  useVideoPlayback,
  type PlaybackSource,
  type ViewerAction,
  type ViewerSource,
} from '../../kits/viewer/index.ts';
import type { SharedNode } from './api.ts';

/** Where a link's page finds a node's pictures and bytes: plain URLs, null where the link does not allow it. */
export interface LinkSources {
  thumbnail: (node: SharedNode) => string | null;
  preview: (node: SharedNode) => string | null;
  /** The file itself, opened in the page: a video played, a photo zoomed past its preview. */
  media: (node: SharedNode) => string | null;
  download: (node: SharedNode) => string | null;
  /** A video's playback copy and how it stands, where the link lets its files be played (null otherwise). */
  playback: PlaybackSource | null;
}

/** No questions asked: a link whose files may not be played. */
const NOWHERE: PlaybackSource = { scope: 'none', facts: () => Promise.reject(new Error('not asked')), copyUrl: () => null };

/**
 * The app's viewer over a link's files, as a visitor may see them: no actions of an account, and
 * Download only where the link allows it (a video then plays from the link too; without it, the
 * viewer says why it cannot).
 */
export function LinkViewer({
  items,
  index,
  sources,
  onIndex,
  onClose,
  keep,
}: {
  items: SharedNode[];
  index: number;
  sources: LinkSources;
  onIndex: (index: number) => void;
  onClose: () => void;
  /** Keep a copy, for a family member signed in in this browser, and what it says. */
  keep?: { action: ViewerAction<SharedNode> | null; view: ReactNode } | undefined;
}) {
  const near = sources.playback ? items.slice(Math.max(0, index - 2), index + 3).filter(isVideo) : [];
  const video = useVideoPlayback(near, sources.playback ?? NOWHERE);
  const source = useMemo<ViewerSource<SharedNode>>(
    () => ({
      preview: sources.preview,
      placeholder: sources.thumbnail,
      media: sources.media,
      ...(sources.playback && { video }),
    }),
    [sources, video],
  );
  const download = (node: SharedNode) => {
    const url = sources.download(node);
    if (url) saveFrom(url, node.name);
  };
  const downloads = items[index] ? sources.download(items[index]) !== null : false;
  return (
    <Suspense fallback={<Spinner label="Opening the photo" />}>
      <LazyViewer
        items={items}
        index={index}
        onIndexChange={onIndex}
        onClose={onClose}
        source={source as ViewerSource}
        onDownload={downloads ? (item) => download(item as SharedNode) : undefined}
        actions={keep?.action ? [keep.action as ViewerAction] : []}
        overlay={keep?.view}
        closeLabel="Close"
      />
    </Suspense>
  );
}
