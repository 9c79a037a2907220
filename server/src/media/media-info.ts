// What all the media code shares (tools, limits, thumbnail sizes, what processing yields), apart from
// processor.ts: video-poster.ts renders with it, and processor.ts calls video-poster.ts for videos.
import { NO_DETAILS, type MediaDetails } from './details.ts';

/** System tools found at start-up; any may be missing, and what needs it is then skipped. */
export interface MediaTools {
  heifConvert: string | null;
  ffmpeg: string | null;
  ffprobe: string | null;
  prlimit: string | null;
}

export interface MediaLimits {
  /** Decompression bombs: images with more pixels are refused before decoding. */
  maxPixels: number;
  /**
   * HEIF decoders allocate from the size the file declares and hold the whole file: both are
   * checked before one starts (a phone's 48 MP photo is 10 to 25 MB).
   */
  maxHeifPixels: number;
  maxHeifBytes: number;
  /** Wall-clock bound of one job's decoding and resizing. */
  timeoutMs: number;
  /** Address-space bound of the external decoders. */
  toolMemoryBytes: number;
  /** Resident memory a worker process may reach; past it the pool kills it (its job fails alone). */
  workerMemoryBytes: number;
  /** Bound of the WebAssembly HEIC decoder's memory inside a worker. */
  wasmMemoryBytes: number;
}

export const DEFAULT_MEDIA_LIMITS: MediaLimits = {
  maxPixels: 200_000_000,
  maxHeifPixels: 64_000_000,
  maxHeifBytes: 128 * 1024 ** 2,
  timeoutMs: 60_000,
  toolMemoryBytes: 2 * 1024 ** 3,
  workerMemoryBytes: 1536 * 1024 ** 2,
  wasmMemoryBytes: 1024 ** 3,
};

/** Long edge of each cached thumbnail: the grid size and the full-screen size. */
export const THUMBNAIL_SIZES = [512, 1024] as const;
export type ThumbnailSize = (typeof THUMBNAIL_SIZES)[number];
/** The size every listing shows: made when a file is processed, before node.thumbnail_ready. */
export const GRID_SIZE: ThumbnailSize = 512;

export interface MediaInfo {
  width: number | null;
  height: number | null;
  takenAt: number | null;
  /** Place, camera, zone and length, as far as the file says. */
  details: MediaDetails;
  /** WebP thumbnails of the sizes asked for (none asked: a re-read of the details only), or null when the file could not be rendered. */
  thumbnails: Map<ThumbnailSize, Buffer> | null;
  /** Why there is no thumbnail, for the log. */
  failure: string | null;
  /** The tool whose absence is the failure: the file is processed again once it is installed. */
  missingTool: 'ffmpeg' | null;
}

/** Nothing read, nothing rendered, and why (or null when that is not a failure: a re-read of details only). */
export function failedWith(failure: string | null): MediaInfo {
  return { width: null, height: null, takenAt: null, details: NO_DETAILS, thumbnails: null, failure, missingTool: null };
}

export function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
