import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import exifReader from 'exif-reader';
import sharp from 'sharp';
import WebSocket, { type RawData } from 'ws';
import { configFromEnv, DEFAULT_CONFIG } from '../server/src/config.ts';
import type { Node } from '../server/src/contract/files-responses.ts';
import { setupOwner } from '../server/test/helpers/accounts.ts';
import { uploadFile } from '../server/test/helpers/upload.ts';
import { timedGet } from './lib/http.ts';
import { startListingProbe, type ListingProbe } from './lib/listing-probe.ts';
import { PHOTO_HEIGHT, PHOTO_WIDTH, writePhotos, type Photo } from './lib/photos.ts';
import { childPids, cpuMs, ownCpuMs, removeTempDir, tempDir } from './lib/proc.ts';
import { log, type BenchResult, type Row } from './lib/report.ts';
import { startBenchServer } from './lib/server.ts';
import { sleep, summarize } from './lib/stats.ts';

const PHOTOS = 60;
/** tus uploads in flight at once, as a phone app syncing its camera roll. */
const UPLOADS_IN_FLIGHT = 4;
/** Items at the top level, where the listing loop looks (the photos go into one of them). */
const TOP_LEVEL_ITEMS = 200;
const LISTING_INTERVAL_MS = 20;
/** The idle listing loop's length (right before the pipeline, on the same server). */
const IDLE_LISTING_MS = 5_000;
/** The longest the pipeline may take, uploads and thumbnails, before the bench gives up. */
const PIPELINE_TIMEOUT_MS = 150_000;
/** The goal of issue 5 on this 2-core machine: not a reference, only checked and printed. */
const GOAL_PHOTOS_PER_SECOND = 10;
/**
 * What server/src/media/processor.ts makes (long edge, px) and how: the grid size when a photo
 * is processed (before node.thumbnail_ready), the full-screen size on its first request.
 */
const GRID_SIZE = 512;
const FULL_SIZE = 1024;
const WEBP = { quality: 78, effort: 2 } as const;
const MAX_PIXELS = 200_000_000;
const TIMEOUT_SECONDS = 60;
/** Photos opened full screen after the pipeline: the first request makes the image, the second reads the cache. */
const FULL_SCREEN_PHOTOS = 12;

interface Message {
  type: string;
  at: number;
  payload: { node?: Node };
}

/** One photo through the server: upload start and completion, then its thumbnail_ready. */
interface Trip {
  photo: Photo;
  startedAt: number;
  completedAt: number;
  nodeId: string | null;
}

interface ReferenceRun {
  concurrency: number;
  ms: number;
  /** Time of each photo, start of its metadata read to its last thumbnail. */
  perPhoto: number[];
  cpuMs: number;
  thumbBytes: number;
}

/**
 * What a media worker does for one JPEG when it is processed (processImage + renderThumbnails),
 * called directly: sharp metadata, exif-reader on the EXIF block, then one pipeline from the
 * file to the grid-size WebP, rotate() applied.
 */
async function serverLikeGrid(file: string): Promise<number> {
  return (await serverLike(file, GRID_SIZE)).length;
}

/** The same for the full-screen size, as a worker makes it on the first request for it. */
async function serverLike(file: string, size: number): Promise<Buffer> {
  const metadata = await sharp(file, { limitInputPixels: false }).metadata();
  if (metadata.exif) exifReader(metadata.exif);
  return sharp(file, { limitInputPixels: MAX_PIXELS, failOn: 'error', sequentialRead: true })
    .rotate()
    .timeout({ seconds: TIMEOUT_SECONDS })
    .resize({ width: size, height: size, fit: 'inside', withoutEnlargement: true })
    .webp(WEBP)
    .toBuffer();
}

/** Every photo once through `render`, `concurrency` at a time, in the bench process. */
async function reference(photos: readonly Photo[], concurrency: number, render: (file: string) => Promise<number>): Promise<ReferenceRun> {
  const perPhoto: number[] = [];
  let thumbBytes = 0;
  let next = 0;
  const cpu0 = ownCpuMs();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < photos.length) {
        const photo = photos[next++]!;
        const t = performance.now();
        // Not `thumbBytes += await`: that reads the sum before awaiting and drops the other loops' bytes.
        const bytes = await render(photo.file);
        thumbBytes += bytes;
        perPhoto.push(performance.now() - t);
      }
    }),
  );
  return { concurrency, ms: performance.now() - t0, perPhoto, cpuMs: ownCpuMs() - cpu0, thumbBytes };
}

const rate = (count: number, ms: number) => (count * 1000) / ms;

/**
 * Thumbnails per second for 12-megapixel JPEGs through the whole pipeline, as issue 5 asks:
 * PHOTOS distinct 4000x3000 JPEGs (about 3 MiB each; a third with EXIF orientation 6) are
 * uploaded with tus-js-client, UPLOADS_IN_FLIGHT at a time, into the real server in its own
 * process (production settings, LOG_LEVEL=warn), and each is timed from its upload's
 * completion (the PATCH that answered Service-Node-Id) to its node.thumbnail_ready on a
 * WebSocket. Reference in the same run: the same metadata read and the same grid-size WebP
 * from the same files, with sharp called directly in the bench process, at the server's media
 * worker concurrency and at 2. While the pipeline runs, the top-level listing
 * (TOP_LEVEL_ITEMS items) is requested every LISTING_INTERVAL_MS from a process of its own;
 * reference: the same loop on the idle server right before. Afterwards FULL_SCREEN_PHOTOS photos are opened full
 * screen twice: the first request makes that size, the second reads it from the cache.
 */
export async function benchMedia(): Promise<BenchResult> {
  const work = await tempDir('hearth-bench-media-');
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let probe: ListingProbe | null = null;
  let ws: WebSocket | null = null;
  let bench: Awaited<ReturnType<typeof startBenchServer>> | null = null;
  try {
    log(`  writing ${PHOTOS} JPEGs of ${PHOTO_WIDTH}x${PHOTO_HEIGHT} (not timed)...`);
    const tg = performance.now();
    const photos = await writePhotos(work, PHOTOS);
    const photoBytes = photos.reduce((sum, p) => sum + p.bytes, 0);
    log(
      `  ${(photoBytes / PHOTOS / 2 ** 20).toFixed(2)} MiB a photo on average, written in ${((performance.now() - tg) / 1000).toFixed(1)} s`,
    );

    // The server's worker concurrency, worked out as the server does from this environment.
    const workerConcurrency = configFromEnv(process.env).mediaConcurrency ?? DEFAULT_CONFIG.mediaConcurrency;
    const refConcurrencies = [...new Set([workerConcurrency, 2])];

    log(
      `  reference: sharp in the bench process, concurrency ${refConcurrencies.join(' and ')} (sharp.concurrency() ${sharp.concurrency()})...`,
    );
    // One photo first, so neither side pays for loading libvips or a cold JIT in the figures.
    await serverLikeGrid(photos[photos.length - 1]!.file);
    const refs = new Map<number, ReferenceRun>();
    for (const c of refConcurrencies) {
      const run = await reference(photos, c, serverLikeGrid);
      refs.set(c, run);
      log(`  sharp direct, ${c} at a time: ${rate(PHOTOS, run.ms).toFixed(2)} photos/s`);
    }
    const ref = refs.get(workerConcurrency)!;
    const fullRef = await reference(photos.slice(0, FULL_SCREEN_PHOTOS), 1, async (file) => (await serverLike(file, FULL_SIZE)).length);

    bench = await startBenchServer({ LOG_LEVEL: 'warn' });
    const owner = await setupOwner(bench.client);
    const token = owner.access;
    const album = await bench.client.post('/nodes/folder', { name: 'Camera roll', parent_id: 'root' }, { token });
    if (album.status !== 201) throw new Error(`creating the photos folder answered ${album.status}`);
    let plainFolderId = '';
    for (let i = 1; i < TOP_LEVEL_ITEMS; i++) {
      const res = await bench.client.post('/nodes/folder', { name: `Folder ${String(i).padStart(3, '0')}`, parent_id: 'root' }, { token });
      if (res.status !== 201) throw new Error(`creating folder ${i} answered ${res.status}`);
      if (i === 1) plainFolderId = res.body.id;
    }
    const listUrl = `${bench.server.api}/nodes?parent_id=root`;
    const first = await timedGet(agent, listUrl, token);
    if (first.status !== 200 || (JSON.parse(first.body) as { items: unknown[] }).items.length === 0) {
      throw new Error(`the top-level listing answered ${first.status}: ${first.body.slice(0, 200)}`);
    }

    // Every message on the socket, as it arrives; thumbnail_ready times by node id.
    const ready = new Map<string, { at: number; node: Node }>();
    ws = await new Promise<WebSocket>((resolve, reject) => {
      const socket = new WebSocket(`${bench!.server.url.replace(/^http/, 'ws')}/api/v1/ws`, {
        headers: { authorization: `Bearer ${token}` },
        perMessageDeflate: false,
      });
      socket.on('message', (data: RawData) => {
        const at = performance.now();
        const message = JSON.parse(data.toString()) as Message;
        if (message.type === 'node.thumbnail_ready' && message.payload.node)
          ready.set(message.payload.node.id, { at, node: message.payload.node });
      });
      socket.once('open', () => resolve(socket));
      socket.once('error', reject);
      socket.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused with ${res.statusCode}`)));
    });

    log(`  listing loop on the idle server (${IDLE_LISTING_MS / 1000} s, every ${LISTING_INTERVAL_MS} ms, from a process of its own)...`);
    probe = await startListingProbe();
    await probe.run(listUrl, token, LISTING_INTERVAL_MS, 500);
    const idleCpu0 = cpuMs(bench.pid);
    const idleT0 = performance.now();
    const idle = await probe.run(listUrl, token, LISTING_INTERVAL_MS, IDLE_LISTING_MS);
    // The loop's own cost to the server: CPU ms per second of wall time (of one core's 1000).
    const listingCpuPerSecond = ((cpuMs(bench.pid) - idleCpu0) * 1000) / (performance.now() - idleT0);

    // The same uploads with no media work behind them: files of the photos' sizes in random bytes
    // (sniffed as no image, so no job is queued). What listings suffer from uploads alone.
    log(`  the same ${PHOTOS} uploads, ${UPLOADS_IN_FLIGHT} at a time, as random bytes (no media job), with the listing loop...`);
    const plainSizes = photos.map((p) => p.bytes);
    let nextPlain = 0;
    const plainBusy = probe.run(listUrl, token, LISTING_INTERVAL_MS, PIPELINE_TIMEOUT_MS);
    const plainT0 = performance.now();
    await Promise.all(
      Array.from({ length: UPLOADS_IN_FLIGHT }, async () => {
        while (nextPlain < plainSizes.length) {
          const i = nextPlain++;
          await uploadFile(bench!.server.api, token, crypto.randomBytes(plainSizes[i]!), {
            filename: `plain-${i}.bin`,
            filetype: 'application/octet-stream',
            parentId: plainFolderId,
          });
        }
      }),
    );
    const plainMs = performance.now() - plainT0;
    probe.stop();
    const uploadsAlone = await plainBusy;

    log(
      `  pipeline: ${PHOTOS} uploads, ${UPLOADS_IN_FLIGHT} at a time, each to its thumbnail_ready (media worker concurrency ${workerConcurrency})...`,
    );
    const trips: Trip[] = photos.map((photo) => ({ photo, startedAt: 0, completedAt: 0, nodeId: null }));
    let failure: unknown = null;
    const delay = monitorEventLoopDelay({ resolution: 10 });
    const serverCpu0 = cpuMs(bench.pid);
    // The server's children are its media workers; one that starts later started from nothing.
    const workerCpu = () => childPids(bench!.pid).reduce((sum, pid) => sum + cpuMs(pid), 0);
    const workerCpu0 = workerCpu();
    const benchCpu0 = ownCpuMs();
    const probeCpu0 = probe.cpuMs();
    const t0 = performance.now();
    delay.enable();
    const busyListing = probe.run(listUrl, token, LISTING_INTERVAL_MS, PIPELINE_TIMEOUT_MS);
    let nextUpload = 0;
    const uploads = Promise.all(
      Array.from({ length: UPLOADS_IN_FLIGHT }, async () => {
        while (nextUpload < trips.length && failure === null) {
          const trip = trips[nextUpload++]!;
          const data = await fsp.readFile(trip.photo.file);
          trip.startedAt = performance.now();
          trip.nodeId = await uploadFile(bench!.server.api, token, data, {
            filename: trip.photo.name,
            filetype: 'image/jpeg',
            parentId: album.body.id,
          });
          trip.completedAt = performance.now();
        }
      }),
    ).catch((error: unknown) => {
      failure = error;
    });
    // Bounded wait for every thumbnail_ready (the socket records the times; this only polls).
    const deadline = t0 + PIPELINE_TIMEOUT_MS;
    await uploads;
    while (failure === null && performance.now() < deadline && !trips.every((t) => t.nodeId !== null && ready.has(t.nodeId)))
      await sleep(20);
    probe.stop();
    const busy = await busyListing;
    delay.disable();
    const serverCpuMs = cpuMs(bench.pid) - serverCpu0;
    const workerCpuMs = workerCpu() - workerCpu0;
    const probeCpuMs = probe.cpuMs() - probeCpu0;
    const benchCpuMs = ownCpuMs() - benchCpu0 + probeCpuMs;
    if (failure !== null) throw failure;
    const missing = trips.filter((t) => !ready.has(t.nodeId!));
    if (missing.length > 0)
      throw new Error(`${missing.length} of ${PHOTOS} photos had no node.thumbnail_ready after ${PIPELINE_TIMEOUT_MS / 1000} s`);

    // What the server reported must be what the photos hold, or the speed means nothing.
    for (const trip of trips) {
      const node = ready.get(trip.nodeId!)!.node;
      const [w, h] = trip.photo.rotated ? [PHOTO_HEIGHT, PHOTO_WIDTH] : [PHOTO_WIDTH, PHOTO_HEIGHT];
      if (!node.has_thumbnail || node.image_width !== w || node.image_height !== h || (node.taken_at ?? null) !== trip.photo.takenAt) {
        throw new Error(
          `${trip.photo.name}: thumbnail_ready said ${JSON.stringify(node)}; expected ${w}x${h}, taken_at ${trip.photo.takenAt}`,
        );
      }
    }

    // Full screen, on the quiet server: the first request makes the 1024 image, the second reads it.
    const fullFirst: number[] = [];
    const fullCached: number[] = [];
    for (const trip of trips.slice(0, FULL_SCREEN_PHOTOS)) {
      for (const sample of [fullFirst, fullCached]) {
        const res = await timedGet(agent, `${bench.server.api}/nodes/${trip.nodeId}/thumbnail?size=${FULL_SIZE}`, token);
        if (res.status !== 200)
          throw new Error(`full-screen thumbnail of ${trip.photo.name} answered ${res.status}: ${res.body.slice(0, 200)}`);
        sample.push(res.ms);
      }
    }

    const latencies = trips.map((t) => ready.get(t.nodeId!)!.at - t.completedAt);
    const firstCompletion = Math.min(...trips.map((t) => t.completedAt));
    const lastReady = Math.max(...trips.map((t) => ready.get(t.nodeId!)!.at));
    const lastUpload = Math.max(...trips.map((t) => t.completedAt));
    const fromFirstCompletion = rate(PHOTOS, lastReady - firstCompletion);
    const fromFirstStart = rate(PHOTOS, lastReady - t0);
    const lat = summarize(latencies);
    const refPhoto = summarize(ref.perPhoto);
    const idleS = summarize(idle.map((x) => x.ms));
    const busyS = summarize(busy.map((x) => x.ms));
    // The two phases of the pipeline: uploads (and thumbnails) until the last upload completed,
    // then thumbnails alone. Uploads cost listings their latency even with no media work at all.
    const uploadsEnd = performance.timeOrigin + lastUpload;
    const duringUploads = summarize(busy.filter((x) => x.at < uploadsEnd).map((x) => x.ms));
    const thumbnailsOnly = summarize(busy.filter((x) => x.at >= uploadsEnd).map((x) => x.ms));
    const uploadsAloneS = summarize(uploadsAlone.map((x) => x.ms));
    const ref2 = refs.get(2)!;
    const fullFirstS = summarize(fullFirst);
    const fullCachedS = summarize(fullCached);
    const fullRefS = summarize(fullRef.perPhoto);
    log(
      `  ${fromFirstStart.toFixed(2)} photos/s from the first upload's start; goal ${GOAL_PHOTOS_PER_SECOND} photos/s ` +
        `${fromFirstStart >= GOAL_PHOTOS_PER_SECOND ? 'met' : 'NOT met'}; listing p99 ${busyS.p99.toFixed(1)} ms busy vs ${idleS.p99.toFixed(1)} ms idle`,
    );

    const rows: Row[] = [
      {
        figure: `media pipeline, ${PHOTOS} x 12 MP JPEG, first upload start to last thumbnail_ready`,
        value: fromFirstStart,
        reference: rate(PHOTOS, ref.ms),
        unit: 'photo/s',
        better: 'higher',
        referenceIs: `sharp called directly in the bench process on the same files, same work (metadata, exif-reader, ${GRID_SIZE} px WebP q${WEBP.quality} effort ${WEBP.effort}, rotate()), ${workerConcurrency} at a time (the server's media worker concurrency)`,
      },
      {
        figure: 'media pipeline, first upload completion to last thumbnail_ready',
        value: fromFirstCompletion,
        reference: rate(PHOTOS, ref.ms),
        unit: 'photo/s',
        better: 'higher',
        referenceIs: `the same sharp reference, ${workerConcurrency} at a time`,
      },
      ...(workerConcurrency === 2
        ? []
        : [
            {
              figure: 'media pipeline, first upload start to last thumbnail_ready vs 2 at a time',
              value: fromFirstStart,
              reference: rate(PHOTOS, ref2.ms),
              unit: 'photo/s',
              better: 'higher' as const,
              referenceIs: 'the same sharp reference, 2 photos at a time (one per core)',
            },
          ]),
      {
        figure: 'media: upload completion to thumbnail_ready, p50',
        value: lat.p50,
        reference: refPhoto.p50,
        unit: 'ms',
        better: 'lower',
        referenceIs: `one photo's work in the sharp reference, ${workerConcurrency} at a time, p50 (the server's figure adds the wait in its queue)`,
      },
      {
        figure: 'media: upload completion to thumbnail_ready, p99',
        value: lat.p99,
        reference: refPhoto.p99,
        unit: 'ms',
        better: 'lower',
        referenceIs: `one photo's work in the sharp reference, ${workerConcurrency} at a time, p99`,
      },
      {
        figure: 'media: media worker CPU per photo',
        value: workerCpuMs / PHOTOS,
        reference: ref.cpuMs / PHOTOS,
        unit: 'ms',
        better: 'lower',
        referenceIs: `bench process CPU per photo in the sharp reference, ${workerConcurrency} at a time (utime+stime)`,
      },
      {
        figure: `full-screen thumbnail (${FULL_SIZE} px), first request (made then), p50`,
        value: fullFirstS.p50,
        reference: fullRefS.p50,
        unit: 'ms',
        better: 'lower',
        referenceIs: `sharp direct on the same files, the same work (metadata, exif-reader, ${FULL_SIZE} px WebP), one at a time, p50`,
      },
      {
        figure: `full-screen thumbnail (${FULL_SIZE} px), second request (from the cache), p50`,
        value: fullCachedS.p50,
        reference: fullFirstS.p50,
        unit: 'ms',
        better: 'lower',
        referenceIs: 'the first request for the same photos, p50',
      },
      {
        figure: `top-level listing (${TOP_LEVEL_ITEMS} items) during the media pipeline, p50`,
        value: busyS.p50,
        reference: idleS.p50,
        unit: 'ms',
        better: 'lower',
        referenceIs: `the same GET /nodes?parent_id=root every ${LISTING_INTERVAL_MS} ms on the same server, idle, for ${IDLE_LISTING_MS / 1000} s right before, p50`,
      },
      {
        figure: `top-level listing (${TOP_LEVEL_ITEMS} items) during the media pipeline, p99`,
        value: busyS.p99,
        reference: idleS.p99,
        unit: 'ms',
        better: 'lower',
        referenceIs: 'the same loop on the idle server, p99',
      },
      {
        figure: `top-level listing (${TOP_LEVEL_ITEMS} items) while the photos upload (thumbnails being made), p99`,
        value: duringUploads.p99,
        reference: uploadsAloneS.p99,
        unit: 'ms',
        better: 'lower',
        referenceIs: `the same loop while the same ${PHOTOS} uploads of the same sizes ran as random bytes (no media work), right before, p99`,
      },
      {
        figure: `top-level listing (${TOP_LEVEL_ITEMS} items) after the last upload, thumbnails alone, p99`,
        value: thumbnailsOnly.p99,
        reference: idleS.p99,
        unit: 'ms',
        better: 'lower',
        referenceIs: 'the same loop on the idle server, p99',
      },
    ];
    const kib = (run: ReferenceRun) => (run.thumbBytes / PHOTOS / 1024).toFixed(0);
    return {
      name: 'media',
      rows,
      notes: [
        `Goal ${GOAL_PHOTOS_PER_SECOND} photos/s (issue 5, 2-core machine): ${fromFirstStart >= GOAL_PHOTOS_PER_SECOND ? 'met' : 'NOT met'} ` +
          `(${fromFirstStart.toFixed(2)} photos/s from the first upload's start, ${fromFirstCompletion.toFixed(2)} from the first completion). ` +
          `Sharp direct: ${refConcurrencies.map((c) => `${c} at a time ${rate(PHOTOS, refs.get(c)!.ms).toFixed(2)}`).join(', ')} photos/s.`,
        `${PHOTOS} photos of ${PHOTO_WIDTH}x${PHOTO_HEIGHT}, q90, ${(photoBytes / PHOTOS / 2 ** 20).toFixed(2)} MiB on average; ` +
          `${photos.filter((p) => p.rotated).length} with EXIF orientation 6, ${photos.filter((p) => p.takenAt !== null).length} with DateTimeOriginal; ` +
          'every thumbnail_ready checked for has_thumbnail, oriented width/height and taken_at.',
        `Uploads: ${UPLOADS_IN_FLIGHT} in flight, all ${PHOTOS} done ${((lastUpload - t0) / 1000).toFixed(1)} s after the first started ` +
          `(${(photoBytes / 2 ** 20 / ((lastUpload - t0) / 1000)).toFixed(0)} MiB/s while the media worker ran); last thumbnail ${((lastReady - t0) / 1000).toFixed(1)} s after it.`,
        `Uploads alone (random bytes, no media job): all ${PHOTOS} in ${(plainMs / 1000).toFixed(1)} s; listings meanwhile p50 ${uploadsAloneS.p50.toFixed(1)} ms, ` +
          `p99 ${uploadsAloneS.p99.toFixed(1)} ms (${uploadsAloneS.count} samples).`,
        `Per-photo latency max ${lat.max.toFixed(0)} ms: once uploads outrun the worker, a photo's latency is mostly its wait in the queue.`,
        `Listing samples: ${idle.length} idle, ${busy.length} busy (max ${busyS.max.toFixed(1)} ms): ${duringUploads.count} while uploads ran, ` +
          `p50 ${duringUploads.p50.toFixed(1)} ms, p99 ${duringUploads.p99.toFixed(1)} ms; ${thumbnailsOnly.count} with thumbnails alone, p50 ${thumbnailsOnly.p50.toFixed(1)} ms, ` +
          `p99 ${thumbnailsOnly.p99.toFixed(1)} ms. The uploading bench process's own event-loop delay ` +
          `during the pipeline p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms, max ${(delay.max / 1e6).toFixed(1)} ms (tus-js-client; the listing loop runs in a process of its own, so this is not in its times). ` +
          `The loop alone costs the idle server ${listingCpuPerSecond.toFixed(0)} ms of CPU a second.`,
        `CPU a photo during the pipeline: server ${(serverCpuMs / PHOTOS).toFixed(0)} ms (tus uploads, listings, events), media workers ` +
          `${(workerCpuMs / PHOTOS).toFixed(0)} ms (sharp alone: ${(ref.cpuMs / PHOTOS).toFixed(0)} ms), bench processes ${(benchCpuMs / PHOTOS).toFixed(0)} ms ` +
          `(tus-js-client and the WebSocket, and ${(probeCpuMs / PHOTOS).toFixed(0)} ms of it the listing loop): ${((serverCpuMs + workerCpuMs + benchCpuMs) / PHOTOS).toFixed(0)} ms in all, ` +
          `so ${os.availableParallelism()} cores cap this run at ${((os.availableParallelism() * 1000 * PHOTOS) / (serverCpuMs + workerCpuMs + benchCpuMs)).toFixed(1)} photos/s.`,
        `Grid thumbnails ${kib(ref)} KiB a photo. Full screen (${FULL_SIZE} px, made on the first request, ${FULL_SCREEN_PHOTOS} photos one at a time): ` +
          `first request p50 ${fullFirstS.p50.toFixed(0)} ms, max ${fullFirstS.max.toFixed(0)} ms; from the cache p50 ${fullCachedS.p50.toFixed(1)} ms; ` +
          `sharp direct p50 ${fullRefS.p50.toFixed(0)} ms, ${(fullRef.thumbBytes / FULL_SCREEN_PHOTOS / 1024).toFixed(0)} KiB.`,
      ],
    };
  } finally {
    ws?.terminate();
    probe?.close();
    agent.destroy();
    await bench?.close();
    await removeTempDir(work);
  }
}
