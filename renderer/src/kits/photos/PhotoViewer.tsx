import { Suspense, useMemo, useState, type ReactNode } from 'react';
import { thumbnailPath } from '../../api/thumbnails.ts';
import { useSession } from '../../api/useSession.ts';
import { Spinner } from '../../ui/Notice.tsx';
import {
  isVideo,
  LazyViewer,
  type DetailLine,
  type ViewerAction,
  type ViewerItem,
  type ViewerMark,
  type ViewerSource,
} from '../viewer/index.ts';
import { useDownloadEdited } from './downloadEdited.ts';
import { useKeepCopy } from './keep.tsx';
import { turnBox, usePhotoFaces } from './faces.ts';
import { downloadFile, renewExpiredMedia, useMediaLinks } from './media.ts';
import { PhotoEditPanel } from './PhotoEditPanel.tsx';
import { PhotoPeople } from './PhotoPeople.tsx';
import { peekThumbnail, requestThumbnail } from './thumbs.ts';

/**
 * What the viewer draws for the signed-in app's photos: the 1024 px preview (the grid's
 * thumbnail until it arrives) and the file itself through links made for the photo on screen
 * and two on each side, the ones the lightbox draws.
 */
export function usePhotoSource<T extends ViewerItem>(items: readonly T[], index: number): ViewerSource<T> {
  const media = useMediaLinks(index < 0 ? [] : items.slice(Math.max(0, index - 2), index + 3));
  return useMemo<ViewerSource<T>>(
    () => ({
      // Through the grid's loader: api/thumbnails' loadThumbnail sends only what a mounted image
      // wants, and nothing here mounts one, so the 1024 px preview never came (the grid's 512 stood in).
      preview: (item) => new Promise<string | null>((resolve) => requestThumbnail(thumbnailPath(item, 1024), resolve)),
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

/**
 * The viewer of Photos and of an album, loaded when first opened; Download saves the file as it
 * is (the original, whatever edits it has), and a photo with edits offers "Download as edited". Its owner may edit the photo on screen (Edit: turn it,
 * correct its day and place); an editor may too through the API.
 */
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
  const session = useSession();
  const me = session.kind === 'signed-in' ? session.user.id : null;
  const [editing, setEditing] = useState<string | null>(null);
  const current = items[index];
  const mine = (item: T) => me !== null && (item as { owner_id?: string }).owner_id === me;
  const edit: ViewerAction<T> = { label: 'Edit', icon: 'edit', offered: mine, onClick: (item) => setEditing(item.id) };
  const downloadEdited = useDownloadEdited(current, me !== null);
  const people = usePhotoPeople(current);
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
        actions={[...actions, keep.action, edit] as ViewerAction[]}
        downloads={[downloadEdited] as ViewerAction[]}
        details={(item) => [...(item.id === current?.id ? people.details : []), ...details(item as T)]}
        marks={people.marks}
        overlay={
          <>
            {current && editing === current.id && <PhotoEditPanel key={current.id} item={current} onClose={() => setEditing(null)} />}
            {overlay}
            {keep.view}
          </>
        }
        closeLabel={closeLabel}
      />
    </Suspense>
  );
}

/**
 * Who is in the photo on screen, as GET /photos/{id}/faces tells the caller: a line of the
 * details, and (once Show faces is on, kept on while the family swipes) the boxes on the photo.
 */
function usePhotoPeople(current: ViewerItem | undefined): {
  details: DetailLine[];
  marks: ((item: ViewerItem) => ViewerMark[]) | undefined;
} {
  const [showing, setShowing] = useState(false);
  const faces = usePhotoFaces(current?.id ?? null).data?.items ?? [];
  if (!current || faces.length === 0) return { details: [], marks: undefined };
  const line: DetailLine = {
    label: 'People in this photo',
    value: (
      <PhotoPeople item={current} faces={faces} showing={isVideo(current) ? null : showing} onToggle={() => setShowing((on) => !on)} />
    ),
  };
  const marks = (item: ViewerItem): ViewerMark[] =>
    item.id === current.id
      ? faces.map((face) => ({ id: face.id, box: turnBox(face.box, item.rotation), label: face.name ?? 'Not named yet' }))
      : [];
  return { details: [line], marks: showing ? marks : undefined };
}
