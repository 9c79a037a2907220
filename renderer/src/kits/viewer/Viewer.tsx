import { useEffect, useMemo, useState, type ReactNode } from 'react';
import Lightbox, { type RenderSlideProps, type Slide } from 'yet-another-react-lightbox';
import Zoom from 'yet-another-react-lightbox/plugins/zoom';
import 'yet-another-react-lightbox/styles.css';
import { IconButton } from '../../ui/Button.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { describeTaken, storyTitle, takenTime } from './dates.ts';
import { DownloadButton } from './DownloadButton.tsx';
import { InfoPanel } from './InfoPanel.tsx';
import { MarkedImage } from './MarkedImage.tsx';
import {
  browserCanShow,
  isVideo,
  type DetailLine,
  type ViewerAction,
  type ViewerItem,
  type ViewerMark,
  type ViewerSource,
} from './types.ts';
import { VideoSlide } from './VideoSlide.tsx';
import './viewer.css';

declare module 'yet-another-react-lightbox' {
  interface SlideImage {
    item?: ViewerItem;
  }
  interface SlideTypes {
    /** Everything the lightbox does not draw itself: videos, and photos whose picture is not here yet. */
    hearth: { type: 'hearth'; item: ViewerItem; kind: 'video' | 'pending' | 'none'; poster: string | null };
  }
}

export interface ViewerProps<T extends ViewerItem> {
  items: readonly T[];
  index: number;
  onIndexChange: (index: number) => void;
  onClose: () => void;
  source: ViewerSource<T>;
  /** Saves the file on the device; absent when downloads are off. */
  onDownload?: ((item: T) => void) | undefined;
  /** A fresh media URL for a video whose URL stopped working (its token expired), or null when that is not why it failed. */
  renewMedia?: ((item: T, failedUrl: string) => Promise<string | null>) | undefined;
  actions?: ViewerAction<T>[] | undefined;
  /** Other ways to download the photo on screen ("Download as edited"), offered in Download's menu after the original. */
  downloads?: ViewerAction<T>[] | undefined;
  /** More lines for the details panel (the folder, who shared it). */
  details?: ((item: T) => DetailLine[]) | undefined;
  /**
   * The caller's dialogs and messages while the viewer is open: the viewer makes the rest of the
   * page inert (as a modal must), so they are drawn inside it.
   */
  overlay?: ReactNode;
  /** The words of the button that leaves the viewer: where it goes back to. */
  closeLabel?: string | undefined;
  /** Boxes to draw on the photo on screen (its faces, when the family asks to see them); none when absent or empty. */
  marks?: ((item: T) => ViewerMark[]) | undefined;
}

/**
 * The full-screen viewer, on yet-another-react-lightbox: swipe (touch or mouse), arrow keys,
 * pinch and double-tap zoom, focus kept inside, Escape closes. A photo shows its 1024 px preview
 * (the grid's thumbnail until that arrives) and the original once zoomed past it; a video plays
 * from the file with Range requests, or says plainly that this browser cannot play it.
 */
export function Viewer<T extends ViewerItem>({
  items,
  index,
  onIndexChange,
  onClose,
  source,
  onDownload,
  renewMedia,
  actions = [],
  downloads = [],
  details,
  overlay,
  closeLabel = 'Back to photos',
  marks,
}: ViewerProps<T>) {
  const previews = usePreviews(items, index, source);
  const [infoOpen, setInfoOpen] = useState(false);
  const screen = useScreen();
  const current = items[index];

  const slides = useMemo(
    () =>
      items.map((item) => slideOf(item, previews.get(previewKey(item)) ?? source.placeholder?.(item) ?? null, source.media(item), screen)),
    [items, previews, source, screen],
  );

  const renderSlide = ({ slide, offset, rect }: RenderSlideProps) => {
    if (slide.type !== 'hearth')
      return offset === 0 ? markedSlide(slide, rect, marks as ((item: ViewerItem) => ViewerMark[]) | undefined) : undefined;
    const item = slide.item as T;
    if (slide.kind === 'video') {
      return (
        <VideoSlide
          key={item.id}
          item={item}
          src={source.media(item)}
          loading={source.mediaLoading?.(item) ?? false}
          playback={source.video?.(item) ?? null}
          renew={renewMedia ? (failedUrl) => renewMedia(item, failedUrl) : undefined}
          poster={slide.poster}
          active={offset === 0}
          width={rect.width}
          height={rect.height}
          onDownload={onDownload ? () => onDownload(item) : null}
        />
      );
    }
    return (
      <div className="viewer-pending" role="status">
        <Icon name="photo" />
        <span>{slide.kind === 'pending' ? 'Loading…' : 'No preview of this file yet.'}</span>
      </div>
    );
  };

  return (
    <Lightbox
      open
      close={onClose}
      index={index}
      slides={slides}
      plugins={[Zoom]}
      className={infoOpen ? 'viewer viewer-info-open' : 'viewer'}
      carousel={{ finite: true, preload: 2, padding: 0, spacing: '8%' }}
      animation={{ fade: 200, swipe: 280 }}
      controller={{ closeOnPullDown: true, closeOnBackdropClick: false, preventDefaultWheelY: true }}
      // The photo's pixels against the screen's at the deepest zoom: the original's own size.
      zoom={{ maxZoomPixelRatio: 1.5, doubleClickMaxStops: 2, scrollToZoom: true }}
      labels={{
        Previous: 'Previous photo',
        Next: 'Next photo',
        Close: 'Close',
        Lightbox: 'Photo viewer',
        Carousel: 'Photos',
        Slide: 'Photo',
        'Photo gallery': 'Photos',
        'Zoom in': 'Zoom in',
        'Zoom out': 'Zoom out',
        '{index} of {total}': '{index} of {total}',
      }}
      on={{ view: ({ index: shown }) => shown !== index && onIndexChange(shown) }}
      toolbar={{ buttons: [] }}
      render={{
        slide: renderSlide,
        buttonZoom: () => null,
        controls: () =>
          current ? (
            <>
              <div className="viewer-bar">
                <IconButton icon="back" label={closeLabel} onClick={onClose} />
                <ViewerTitle item={current} />
                <div className="viewer-actions">
                  <IconButton icon="info" label="Details" aria-pressed={infoOpen} onClick={() => setInfoOpen((open) => !open)} />
                  {onDownload && (
                    <DownloadButton
                      item={current}
                      onDownload={onDownload}
                      others={downloads.filter((action) => action.offered?.(current) ?? true)}
                    />
                  )}
                  {actions
                    .filter((action) => action.offered?.(current) ?? true)
                    .map((action) => (
                      <IconButton key={action.label} icon={action.icon} label={action.label} onClick={() => action.onClick(current)} />
                    ))}
                </div>
              </div>
              {infoOpen && <InfoPanel item={current} extra={details?.(current) ?? []} onClose={() => setInfoOpen(false)} />}
              {overlay}
            </>
          ) : (
            overlay
          ),
      }}
    />
  );
}

/**
 * The photo on screen with its boxes drawn on it, rendered inside the zoom so they follow it;
 * undefined (the lightbox's own image) when there are none to draw.
 */
function markedSlide(slide: Slide, rect: RenderSlideProps['rect'], marks: ((item: ViewerItem) => ViewerMark[]) | undefined) {
  if (slide.type === 'hearth' || !slide.item || !marks) return undefined;
  const drawn = marks(slide.item);
  if (drawn.length === 0 || !slide.width || !slide.height) return undefined;
  return <MarkedImage src={slide.src} alt={slide.alt ?? ''} width={slide.width} height={slide.height} rect={rect} marks={drawn} />;
}

/**
 * The story of the photo on screen: the day and place it was taken ("Saturday 3 August 2024,
 * Lisbon"), then the time there with its zone and the file's name. A file that does not say
 * when it was taken is titled by its name, with the day it was uploaded.
 */
function ViewerTitle({ item }: { item: ViewerItem }) {
  const title = storyTitle(item);
  const time = takenTime(item);
  return (
    <div className="viewer-title">
      {title ? (
        <>
          <h2 className="viewer-story">{title}</h2>
          <span className="viewer-subtitle">
            {time && <span className="viewer-time">{time}</span>}
            <span className="viewer-name">{item.name}</span>
          </span>
        </>
      ) : (
        <>
          <h2 className="viewer-story viewer-name">{item.name}</h2>
          <span className="viewer-subtitle">
            <span className="viewer-date">Uploaded {describeTaken(item)}</span>
          </span>
        </>
      )}
    </div>
  );
}

interface Screen {
  width: number;
  height: number;
  dpr: number;
}

function useScreen(): Screen {
  const read = () => ({ width: window.innerWidth, height: window.innerHeight, dpr: window.devicePixelRatio || 1 });
  const [screen, setScreen] = useState<Screen>(read);
  useEffect(() => {
    const onResize = () => setScreen(read());
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return screen;
}

/**
 * A photo's slide. The lightbox's zoom picks from `srcSet` the first source at least as wide as
 * the photo's size on screen in device pixels: the preview is declared as wide as the photo
 * fills the screen, so it is the one shown until a zoom needs more, and then the original.
 */
function slideOf(item: ViewerItem, picture: string | null, original: string | null, screen: Screen): Slide {
  if (isVideo(item)) return { type: 'hearth', item, kind: 'video', poster: picture };
  if (!picture) return { type: 'hearth', item, kind: item.has_thumbnail ? 'pending' : 'none', poster: null };
  // A turned photo's preview is turned by the server; the original is not, so it is not zoomed into.
  const turned = item.rotation === 90 || item.rotation === 270;
  const width = turned ? item.image_height : item.image_width;
  const height = turned ? item.image_width : item.image_height;
  if (!width || !height) return { type: 'image', src: picture, alt: item.name, item };
  const fitted = Math.min(screen.width, (screen.height * width) / height);
  const previewWidth = Math.max(Math.min(1024, width, (1024 * width) / height), Math.ceil(fitted * screen.dpr));
  const zoomable = original !== null && !item.rotation && browserCanShow(item) && width > previewWidth;
  return {
    type: 'image',
    src: picture,
    alt: item.name,
    item,
    width,
    height,
    ...(zoomable && {
      srcSet: [
        { src: picture, width: previewWidth, height: Math.round((previewWidth * height) / width) },
        { src: original, width, height },
      ],
    }),
  };
}

function previewKey(item: ViewerItem): string {
  return `${item.id}:${item.version}:${item.rotation ?? 0}`;
}

/** The 1024 px previews of the photo on screen and its neighbours, loaded as they come near. */
function usePreviews<T extends ViewerItem>(items: readonly T[], index: number, source: ViewerSource<T>): ReadonlyMap<string, string> {
  const [loaded, setLoaded] = useState<ReadonlyMap<string, string>>(new Map());
  const wanted = items.slice(Math.max(0, index - 2), index + 3).filter((item) => item.has_thumbnail);
  const key = wanted.map(previewKey).join(',');
  useEffect(() => {
    let live = true;
    for (const item of wanted) {
      const id = previewKey(item);
      if (loaded.has(id)) continue;
      const answer = source.preview(item);
      void Promise.resolve(answer).then((url) => {
        if (!live || !url) return;
        // Only the neighbourhood is kept: a URL of the shared thumbnail cache may be revoked later.
        const keep = new Set(key.split(','));
        setLoaded((before) => new Map([...before].filter(([k]) => keep.has(k)).concat([[id, url]])));
      });
    }
    return () => {
      live = false;
    };
    // `key` names exactly the items wanted.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, source]);
  return loaded;
}
