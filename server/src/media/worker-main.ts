/**
 * A media worker process: decodes photos and videos for the server, one job at a time. It
 * runs apart from the server (and at a lower CPU priority) so a decoder crash on a hostile
 * file kills only this process, and thumbnails never slow down the requests of the family.
 */
import v8 from 'node:v8';
import sharp from 'sharp';
import type { MediaDetails } from './details.ts';
import { processMedia } from './processor.ts';
import { failedWith, type MediaInfo, type MediaLimits, type MediaTools, type ThumbnailSize } from './media-info.ts';

// The WebAssembly HEIC decoder's memory may grow only this far: past it decoding fails with an
// error instead of taking the machine's memory. Set before any module is instantiated. V8
// ignores a flag it does not know, so a future Node without this one still runs.
const wasmBytes = Number(process.env.HEARTH_WASM_MEMORY_BYTES);
if (Number.isFinite(wasmBytes) && wasmBytes > 0) v8.setFlagsFromString(`--wasm-max-mem-pages=${Math.floor(wasmBytes / 65536)}`);

export interface WorkerJob {
  id: number;
  file: string;
  mime: string;
  sizes: ThumbnailSize[];
  tools: MediaTools;
  limits: MediaLimits;
}

export interface WorkerReply {
  id: number;
  width: number | null;
  height: number | null;
  takenAt: number | null;
  details: MediaDetails;
  thumbnails: [number, Uint8Array][] | null;
  failure: string | null;
  missingTool: MediaInfo['missingTool'];
}

// Every job reads another file: libvips' operation cache would hit nothing and hold ~30 MB.
sharp.cache(false);

process.on('message', (job: WorkerJob) => {
  void processMedia(job.file, job.mime, job.tools, job.limits, job.sizes).then(
    (info) => reply({ id: job.id, ...info, thumbnails: info.thumbnails ? [...info.thumbnails] : null }),
    (error: unknown) => reply({ id: job.id, ...failedWith(`worker error: ${String(error)}`), thumbnails: null }),
  );
});

// The server going away takes its workers with it.
process.on('disconnect', () => process.exit(0));

function reply(message: WorkerReply): void {
  process.send?.(message);
}
