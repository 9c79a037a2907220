import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { downloadLink, isPlaybackCopyUrl, startDownload, videoLinks, type DownloadLink } from '../../api/downloads.ts';
import { browserCanShow, isVideo, useVideoPlayback, type VideoPlayback } from '../viewer/index.ts';
import { useAppPlaybackSource } from './playback.ts';

/** What needs the file itself in the viewer: a video plays it, a photo's original is shown once zoomed. */
interface MediaItem {
  id: string;
  mime_type: string | null;
  version: number;
}

/** Made again this long before it expires (at most a third of its life): a zoom or a seek needs time to start with it. */
const RENEW_BEFORE_MS = 45_000;

interface MediaLink {
  url: string;
  /** A video's playback copy, by the same token. */
  copyUrl: string | null;
  expiresAt: number;
  renewAt: number;
}

function usesMedia(item: MediaItem): boolean {
  return isVideo(item) || browserCanShow(item);
}

/**
 * The file URLs of the photos and videos around the one on screen, each with a token made for
 * its node (api/downloads.ts), and made again shortly before it expires while it is still
 * near. A URL already given to a playing video stays with it (see renewExpiredMedia). For a
 * video, also whether this browser plays the original or its playback copy (playback.ts).
 */
export function useMediaLinks(near: readonly MediaItem[]): {
  url(item: MediaItem): string | null;
  loading(item: MediaItem): boolean;
  video(item: MediaItem): VideoPlayback | null;
} {
  const [links, setLinks] = useState<ReadonlyMap<string, MediaLink>>(new Map());
  /** Items whose link could not be made (offline, or the file went away): not asked again while near. */
  const [failed, setFailed] = useState<ReadonlySet<string>>(new Set());
  const asking = useRef(new Set<string>());
  const [tick, setTick] = useState(0);
  const wanted = near.filter(usesMedia);
  const key = wanted.map((item) => item.id).join(',');

  useEffect(() => {
    const now = Date.now();
    for (const item of wanted) {
      const known = links.get(item.id);
      if ((known && known.renewAt > now) || asking.current.has(item.id) || failed.has(item.id)) continue;
      asking.current.add(item.id);
      // Kept when it arrives, whatever is near by then: each answer is asked for once.
      (isVideo(item) ? videoLinks(item) : downloadLink(item, true))
        .then((link) => setLinks((before) => new Map(before).set(item.id, withRenewal(link))))
        // Not made: the photo stays at its preview, the video says it could not be loaded.
        .catch(() => setFailed((before) => new Set(before).add(item.id)))
        .finally(() => asking.current.delete(item.id));
    }
    // Wake up when the first of them is due again.
    const due = Math.min(...wanted.map((item) => links.get(item.id)?.renewAt ?? Infinity));
    const timer = Number.isFinite(due) ? setTimeout(() => setTick((n) => n + 1), Math.max(1_000, due - now)) : null;
    return () => {
      if (timer) clearTimeout(timer);
    };
    // `key` names exactly the items wanted; `links` changes only by what this effect asked for.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, links, failed, tick]);

  const copyUrl = useCallback(
    (id: string) => {
      const link = links.get(id);
      return link && link.expiresAt > Date.now() ? link.copyUrl : null;
    },
    [links],
  );
  const videoKey = near
    .filter(isVideo)
    .map((item) => `${item.id}:${item.version}`)
    .join(',');
  const videos = useMemo(() => near.filter(isVideo), [videoKey]); // eslint-disable-line react-hooks/exhaustive-deps
  const playback = useVideoPlayback(videos, useAppPlaybackSource(copyUrl));

  return useMemo(
    () => ({
      url: (item: MediaItem) => {
        const link = links.get(item.id);
        return link && link.expiresAt > Date.now() ? link.url : null;
      },
      loading: (item: MediaItem) => usesMedia(item) && !links.has(item.id) && !failed.has(item.id),
      video: (item: MediaItem) => (isVideo(item) ? playback(item) : null),
    }),
    [links, failed, playback],
  );
}

function withRenewal(link: DownloadLink & { copyUrl?: string }): MediaLink {
  const now = Date.now();
  return { ...link, copyUrl: link.copyUrl ?? null, renewAt: link.expiresAt - Math.min(RENEW_BEFORE_MS, (link.expiresAt - now) / 3) };
}

/**
 * A fresh URL for a video whose URL stopped working, when that is why: the browser asks for
 * ranges as the video plays and seeks, and a token that expired under a long video answers
 * 401. The server is asked about the failed URL itself; only a 401 is renewed, so a file that
 * fails while its URL works is reported as unplayable rather than retried forever.
 */
export async function renewExpiredMedia(item: Pick<MediaItem, 'id'>, failedUrl: string): Promise<string | null> {
  const probe = await fetch(failedUrl, { method: 'HEAD' }).catch(() => null);
  if (probe?.status !== 401) return null;
  // A copy is renewed as a copy: the original may be what this browser cannot play.
  const fresh = isPlaybackCopyUrl(failedUrl)
    ? videoLinks(item).then((link) => link.copyUrl)
    : downloadLink(item, true).then((link) => link.url);
  return fresh.catch(() => null);
}

/** Saves a file on the device (the browser's own download, resumable and off this page). */
export function downloadFile(node: { id: string; name: string }): Promise<void> {
  return startDownload(node);
}
