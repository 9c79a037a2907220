import type { ReactNode } from 'react';

/** What the viewer needs to know of a photo or video (a node of the API, or of a public link). */
export interface ViewerItem {
  id: string;
  name: string;
  mime_type: string | null;
  size: number;
  version: number;
  has_thumbnail: boolean;
  image_width?: number;
  image_height?: number;
  taken_at?: number;
  /** Degrees clockwise its pictures are turned by (a family member's edit; the file and its width and height are as they were). */
  rotation?: number;
  /** Minutes east of UTC where it was taken: its times are shown in that zone. */
  taken_offset?: number;
  duration_ms?: number;
  /** Where it was taken (on a link's page, in words only: no coordinates). */
  place?: { latitude?: number; longitude?: number; town?: string; country_code?: string };
  /** What took it and how (never on a link's page). */
  camera?: {
    make?: string;
    model?: string;
    lens?: string;
    f_number?: number;
    exposure_time?: number;
    iso?: number;
    focal_length?: number;
  };
  created_at: number;
  updated_at: number;
}

/**
 * Where the viewer gets pictures and bytes. The signed-in app fetches thumbnails with its token
 * (so `preview` answers a promise of a blob URL); a public link's page has plain URLs.
 */
export interface ViewerSource<T extends ViewerItem = ViewerItem> {
  /** The 1024 px picture. */
  preview(item: T): string | null | Promise<string | null>;
  /** A smaller picture already at hand (the grid's), shown at once while the preview loads. */
  placeholder?(item: T): string | null;
  /** The original file, loaded by the browser itself: zoomed photos and played videos. Null when not allowed (or not yet made). */
  media(item: T): string | null;
  /** Whether the media URL of the item is still being made: a video waits on its poster instead of saying it cannot play. */
  mediaLoading?(item: T): boolean;
  /** For a video: whether to play its playback copy, and how that copy stands. Absent: the original, as it is. */
  video?(item: T): VideoPlayback | null;
}

/** A video's playback copy, for browsers that cannot play the original (an iPhone's HEVC in Chromium and Firefox). */
export interface VideoCopy {
  /** `preparing`: waiting in the queue, or being made now. */
  state: 'ready' | 'preparing';
  /** The copy's URL once ready (null while its link is being made). */
  url: string | null;
  /** 0 to 1 while being made. */
  progress: number | null;
}

export interface VideoPlayback {
  /** The server has not said yet what the video is: the slide waits on its poster. */
  deciding: boolean;
  /** This browser says it cannot play the original: the copy is played (or awaited). */
  preferCopy: boolean;
  /** Null when the video has none coming (every browser plays it, copies are off, or none could be made). */
  copy: VideoCopy | null;
  /** No copy now because its owner's storage has no room for one (a copy counts in it): said if the original does not play. */
  noRoomForCopy?: boolean;
}

/** A button of the viewer's bar (share, trash…); the viewer adds Info, Download and Close itself. */
export interface ViewerAction<T extends ViewerItem = ViewerItem> {
  label: string;
  icon: 'share' | 'trash' | 'star' | 'download' | 'info' | 'photo' | 'remove' | 'copy' | 'lock' | 'edit';
  onClick(item: T): void;
  /** Whether the photo on screen offers it (someone else's cannot be trashed here); always, when absent. */
  offered?(item: T): boolean;
}

/** A box drawn on the photo on screen (a face and who it is), in fractions of the picture as shown. */
export interface ViewerMark {
  id: string;
  box: { x: number; y: number; w: number; h: number };
  label: string;
}

/** A line of the details panel beyond those the viewer shows (size, dates, dimensions). */
export interface DetailLine {
  label: string;
  value: ReactNode;
}

export function isVideo(item: Pick<ViewerItem, 'mime_type'>): boolean {
  return item.mime_type?.startsWith('video/') ?? false;
}

/** Formats every current browser shows in an <img>: only these originals are used for zoom. */
const BROWSER_IMAGES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif', 'image/bmp']);

export function browserCanShow(item: Pick<ViewerItem, 'mime_type'>): boolean {
  return item.mime_type !== null && BROWSER_IMAGES.has(item.mime_type);
}
