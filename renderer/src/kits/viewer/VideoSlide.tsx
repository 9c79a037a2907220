import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Icon } from '../../ui/Icon.tsx';
import { Spinner } from '../../ui/Notice.tsx';
import type { VideoCopy, VideoPlayback, ViewerItem } from './types.ts';

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
  /** The original or its playback copy (source.video); null: the original, as it is. */
  playback?: VideoPlayback | null;
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

type Mode = 'original' | 'copy';

/**
 * A video slide. The original plays where the browser can play it; elsewhere its playback copy
 * (H.264, made by the server), and until that is made the slide says so in plain words and
 * starts the video by itself once it is ready. A video nothing here can play (no copy coming)
 * shows its poster and says so, with a download button: never a black box. The original is
 * caught failing three ways: canPlayType, the error event, and metadata without a picture (a
 * browser that reads the file but cannot decode its video would play the sound over black);
 * then the copy takes over, if there is one.
 */
export function VideoSlide({
  item,
  src,
  loading = false,
  playback = null,
  renew,
  poster,
  active,
  width,
  height,
  onDownload,
}: VideoSlideProps) {
  const video = useRef<HTMLVideoElement>(null);
  const [originalFailed, setOriginalFailed] = useState(() => !worthTrying(item.mime_type));
  const [copyFailed, setCopyFailed] = useState(false);
  /** The URL in use, and for which of the two: taken once, so renewing links never restarts a video under way. */
  const [shown, setShown] = useState<{ mode: Mode; url: string } | null>(null);
  /** False from a renewal until the renewed URL has loaded: one that fails at once is not renewed again. */
  const settled = useRef(true);
  const resumeAt = useRef<{ time: number; play: boolean } | null>(null);

  useEffect(() => {
    if (!active) video.current?.pause();
  }, [active]);

  const copy = playback?.copy ?? null;
  const mode: Mode = playback?.preferCopy || (originalFailed && copy !== null) ? 'copy' : 'original';
  const wanted = mode === 'copy' ? (copy?.state === 'ready' ? copy.url : null) : src;
  if (wanted !== null && shown?.mode !== mode) setShown({ mode, url: wanted });
  const current = shown?.mode === mode ? shown.url : null;

  const size = fit(item, width, height);
  const cannotPlay = mode === 'original' ? originalFailed : copyFailed;

  // Until the server says what the video is, nothing is loaded: the original may be the wrong one to ask for.
  const waiting = playback?.deciding || (current === null && (loading || (mode === 'copy' && copy?.state === 'ready')));
  const notice = noticeInstead({ item, poster, width, height, onDownload, cannotPlay, waiting, mode, copy, current, playback });
  // A card always stands in for a video with no URL: `current` is there past this.
  if (notice || current === null) return notice;

  const fail = () => (mode === 'original' ? setOriginalFailed(true) : setCopyFailed(true));
  return (
    <video
      key={mode}
      ref={video}
      className="viewer-video"
      src={current}
      poster={poster ?? undefined}
      controls
      playsInline
      preload="metadata"
      width={size.width}
      height={size.height}
      aria-label={item.name}
      data-playing={mode}
      onLoadedMetadata={(event) => {
        settled.current = true;
        const element = event.currentTarget;
        if (element.videoWidth === 0 && element.videoHeight === 0) return fail();
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
            setShown({ mode, url: fresh });
            return;
          }
        }
        fail();
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

/**
 * What the slide shows instead of the video, if anything: a spinner on the poster while it
 * waits, or a card that says why it does not play (its copy is being made, there is no room for
 * one, this browser cannot play it, or its link could not be made).
 */
function noticeInstead({
  item,
  poster,
  width,
  height,
  onDownload,
  cannotPlay,
  waiting,
  mode,
  copy,
  current,
  playback,
}: {
  item: ViewerItem;
  poster: string | null;
  width: number;
  height: number;
  onDownload: (() => void) | null;
  cannotPlay: boolean;
  waiting: boolean;
  mode: Mode;
  copy: VideoCopy | null;
  current: string | null;
  playback: VideoPlayback | null;
}): ReactNode {
  if (!cannotPlay && waiting) {
    return (
      <div className="video-fallback" style={{ width, height }}>
        {poster ? <img src={poster} alt="" className="video-fallback-poster" draggable={false} /> : null}
        <Spinner label="Loading the video" />
      </div>
    );
  }

  if (!cannotPlay && mode === 'copy' && copy?.state === 'preparing') {
    return (
      <Card
        name={item.name}
        icon="clock"
        poster={poster}
        width={width}
        height={height}
        onDownload={onDownload}
        title="This video is being prepared for this browser"
      >
        {copy.progress !== null && copy.progress > 0
          ? `It is ${Math.min(99, Math.round(copy.progress * 100))}% ready and will start here by itself.`
          : 'It will be ready in a few minutes and will start here by itself.'}{' '}
        {onDownload ? 'You can also download it now.' : ''}
      </Card>
    );
  }

  if (cannotPlay && playback?.noRoomForCopy) {
    return (
      <Card name={item.name} poster={poster} width={width} height={height} onDownload={onDownload} title="This video can't play here">
        This browser needs a copy of it in another format, and there is no room left for one in the storage of the person it belongs to.{' '}
        {onDownload ? 'Download it to watch it on this device.' : ''}
      </Card>
    );
  }

  if (cannotPlay || current === null) {
    return (
      <Card
        name={item.name}
        poster={poster}
        width={width}
        height={height}
        onDownload={onDownload}
        title={current === null && !cannotPlay ? 'This video is not available here' : "This video can't play here"}
      >
        {current === null && !cannotPlay
          ? onDownload
            ? 'It could not be loaded just now. Close it and open it again in a moment.'
            : 'Playing it needs a download, which is switched off.'
          : 'It was recorded in a format this browser does not play (iPhone videos often are). Download it to watch it on this device.'}
      </Card>
    );
  }
  return null;
}

/** The poster with a few words over it instead of a video, and the download button; named by the video. */
function Card({
  name,
  icon = 'video',
  poster,
  width,
  height,
  title,
  children,
  onDownload,
}: {
  name: string;
  /** A clock while the copy is made: a play sign would promise what cannot happen yet. */
  icon?: 'video' | 'clock';
  poster: string | null;
  width: number;
  height: number;
  title: string;
  children: ReactNode;
  onDownload: (() => void) | null;
}) {
  return (
    <div className="video-fallback" style={{ width, height }} role="group" aria-label={name}>
      {poster ? <img src={poster} alt="" className="video-fallback-poster" draggable={false} /> : null}
      <div className="video-fallback-card" role="status">
        <Icon name={icon} />
        <p className="video-fallback-title">{title}</p>
        <p>{children}</p>
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

/** The size the video takes in the slide, from its upright dimensions when the server knows them. */
function fit(item: ViewerItem, width: number, height: number): { width: number; height: number } {
  const w = item.image_width;
  const h = item.image_height;
  if (!w || !h || width === 0 || height === 0) return { width: Math.min(width, 640) || 640, height: Math.min(height, 360) || 360 };
  const scale = Math.min(width / w, height / h);
  return { width: Math.round(w * scale), height: Math.round(h * scale) };
}
