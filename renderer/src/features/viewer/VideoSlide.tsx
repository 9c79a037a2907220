import { useEffect, useRef, useState } from 'react';
import { Icon } from '../../ui/Icon.tsx';
import { Spinner } from '../../ui/Notice.tsx';
import type { ViewerItem } from './types.ts';

/**
 * Whether to try playing at all. canPlayType answers '' for a type the browser knows it cannot
 * play; QuickTime is tried anyway, since Chrome plays the H.264 .mov files of many phones while
 * answering '' for video/quicktime. What fails is caught below instead.
 */
function worthTrying(mimeType: string | null): boolean {
  if (!mimeType) return true;
  if (mimeType === 'video/quicktime') return true;
  return document.createElement('video').canPlayType(mimeType) !== '';
}

export interface VideoSlideProps {
  item: ViewerItem;
  /** The file, played with Range requests (the browser seeks by asking for the bytes it needs). */
  src: string | null;
  /** The URL is still being made: the slide waits on its poster. */
  loading?: boolean;
  /**
   * A fresh URL when the one in use stopped working because its token expired (a long video
   * asks for ranges as it plays and seeks); null when that is not why it failed.
   */
  renew?: ((failedUrl: string) => Promise<string | null>) | undefined;
  poster: string | null;
  active: boolean;
  width: number;
  height: number;
  onDownload: (() => void) | null;
}

/**
 * A video slide. A video the browser cannot play (an iPhone's HEVC .mov in most browsers) shows
 * its poster and says so, with a download button: never a black box. That is caught three ways:
 * canPlayType, the error event, and metadata without a picture (a browser that can read the file
 * but not decode its video would play the sound over black).
 */
export function VideoSlide({ item, src, loading = false, renew, poster, active, width, height, onDownload }: VideoSlideProps) {
  const video = useRef<HTMLVideoElement>(null);
  const [unplayable, setUnplayable] = useState(() => !worthTrying(item.mime_type));
  const [currentSrc, setCurrentSrc] = useState(src);
  /** False from a renewal until the renewed URL has loaded: one that fails at once is not renewed again. */
  const settled = useRef(true);
  const resumeAt = useRef<{ time: number; play: boolean } | null>(null);

  useEffect(() => {
    if (!active) video.current?.pause();
  }, [active]);

  // A URL made after the slide appeared is taken once; the viewer renewing its links later
  // never swaps the URL of a video under way (that would start it again).
  if (currentSrc === null && src !== null) setCurrentSrc(src);

  const size = fit(item, width, height);

  if (!unplayable && currentSrc === null && loading) {
    return (
      <div className="video-fallback" style={{ width, height }}>
        {poster ? <img src={poster} alt="" className="video-fallback-poster" draggable={false} /> : null}
        <Spinner label="Loading the video" />
      </div>
    );
  }

  if (unplayable || currentSrc === null) {
    return (
      <div className="video-fallback" style={{ width, height }}>
        {poster ? <img src={poster} alt="" className="video-fallback-poster" draggable={false} /> : null}
        <div className="video-fallback-card" role="status">
          <Icon name="video" />
          <p className="video-fallback-title">{currentSrc === null ? 'This video is not available here' : "This video can't play here"}</p>
          <p>
            {currentSrc === null
              ? onDownload
                ? 'It could not be loaded just now. Close it and open it again in a moment.'
                : 'Playing it needs a download, which is switched off.'
              : 'It was recorded in a format this browser does not play (iPhone videos often are). Download it to watch it on this device.'}
          </p>
          {onDownload && (
            <button type="button" className="btn btn-primary" onClick={onDownload}>
              <Icon name="download" />
              Download video
            </button>
          )}
        </div>
      </div>
    );
  }

  return (
    <video
      ref={video}
      className="viewer-video"
      src={currentSrc}
      poster={poster ?? undefined}
      controls
      playsInline
      preload="metadata"
      width={size.width}
      height={size.height}
      aria-label={item.name}
      onLoadedMetadata={(event) => {
        settled.current = true;
        const element = event.currentTarget;
        if (element.videoWidth === 0 && element.videoHeight === 0) setUnplayable(true);
        const resume = resumeAt.current;
        if (resume) {
          resumeAt.current = null;
          element.currentTime = resume.time;
          if (resume.play) void element.play().catch(() => undefined);
        }
      }}
      onError={async (event) => {
        const element = event.currentTarget;
        const failed = element.getAttribute('src');
        // A link whose token expired fails like a file that cannot play: renew, and go on from here.
        if (settled.current && renew && failed) {
          const at = { time: element.currentTime, play: !element.paused };
          const fresh = await renew(failed);
          if (fresh) {
            settled.current = false;
            resumeAt.current = at;
            setCurrentSrc(fresh);
            return;
          }
        }
        setUnplayable(true);
      }}
      // The controls' seek bar is dragged sideways: that is not a swipe to the next photo.
      onPointerDown={(event) => {
        if (event.currentTarget.getBoundingClientRect().bottom - event.clientY < 64) event.stopPropagation();
      }}
      onKeyDown={(event) => {
        if (event.key === 'ArrowLeft' || event.key === 'ArrowRight' || event.key === ' ') event.stopPropagation();
      }}
    />
  );
}

/** The size the video takes in the slide, from its upright dimensions when the server knows them. */
function fit(item: ViewerItem, width: number, height: number): { width: number; height: number } {
  const w = item.image_width;
  const h = item.image_height;
  if (!w || !h || width === 0 || height === 0) return { width: Math.min(width, 640) || 640, height: Math.min(height, 360) || 360 };
  const scale = Math.min(width / w, height / h);
  return { width: Math.round(w * scale), height: Math.round(h * scale) };
}
