import { Readable } from 'node:stream';
import sharp from 'sharp';
import { AppError } from '../../app-error.ts';
import { eagerSizes } from '../../media/processor.ts';
import { GRID_SIZE, type MediaInfo, type MediaLimits, type MediaTools, type ThumbnailSize } from '../../media/media-info.ts';
import { countryWords, sharedPlaces, type Places } from '../../media/places.ts';
import { mediaSearchText } from '../../store/database/gallery-search.ts';
import { MediaWorkerPool } from '../../media/worker-pool.ts';
import type { ContentStores } from '../../store/content/content-stores.ts';
import { NO_FACTS, type MediaFacts, type MediaJobRow } from '../../store/database/media.repo.ts';
import type { NodeRow } from '../../store/database/nodes.repo.ts';
import type { ThumbnailStore } from '../../store/content/thumbs.ts';
import type { AccessService } from '../files/access.ts';
import type { Actor, ServiceDeps } from '../common/context.ts';
import { JobBackoff } from './media-backoff.ts';
import { searchKey } from '../files/node-names.ts';
import { toNodeDto } from '../files/node-dto.ts';
import type { StorageHealth } from '../storage/storage-health.ts';

/**
 * Starts at which a job's content was on a drive that was away, before it is given up. Counted
 * in the database (media_jobs.attempts), and only for that: a job failing for its own reasons
 * is counted by JobBackoff, in memory, for the run it fails in.
 */
const MAX_STARTS_AWAY = 3;
const PREVIEW_COUNT = 4;
/**
 * How long after the start the media workers are started ahead of the first photo. Forking one
 * holds the event loop 7 to 11 ms (two: 15 to 22 ms measured), which a start otherwise spent
 * before its first answer: after a restore, the family's first screen waited for it.
 */
const WARM_AFTER_MS = 250;

export interface ThumbnailFile {
  etag: string;
  /** The WebP from the cache; made first when this size was not (or is no longer) in it. */
  open(): Promise<Readable>;
}

/**
 * Photos and videos: a durable queue of processing jobs, worked off the request path with
 * bounded concurrency. Jobs are written with the content that needs them (same transaction),
 * so the queue survives restarts; the worker wakes on node events. A job that fails backs off
 * and is given up after a few tries; while the data folder's disk is full or read-only the
 * whole queue waits, and goes on by itself once it takes writes again.
 */
export class MediaService {
  private readonly inFlight = new Set<string>();
  /** Jobs whose content is on a drive that is away: skipped until the next start. */
  private readonly deferred = new Set<string>();
  private running = 0;
  private stopped = false;
  private idleWaiters: (() => void)[] = [];
  private readonly unsubscribe: () => void;
  private readonly pool: MediaWorkerPool;
  /** Thumbnails being made on request, by node, version and size: asked twice, made once. */
  private readonly rendering = new Map<string, Promise<Buffer>>();
  private readonly backoff: JobBackoff;
  private readonly unwatchStorage: () => void;
  private pumpScheduled = false;
  private warming: NodeJS.Timeout | null = null;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly access: AccessService,
    private readonly content: ContentStores,
    private readonly thumbs: ThumbnailStore,
    private readonly tools: MediaTools,
    private readonly limits: MediaLimits,
    private readonly concurrency: number,
    private readonly storage: StorageHealth,
    private readonly places: Places = sharedPlaces,
  ) {
    this.pool = new MediaWorkerPool(concurrency, tools, limits);
    this.backoff = new JobBackoff(deps.now, () => this.schedulePump(), deps.config.mediaRetryMs);
    this.unwatchStorage = storage.onChange(() => {
      if (storage.state() === 'ok') this.schedulePump();
    });
    this.unsubscribe = deps.bus.subscribe((event) => {
      const type = event.message.type;
      if (type === 'node.created' || type === 'node.updated') this.schedulePump();
      if (type === 'node.deleted' && (event.message.payload as { permanent: boolean }).permanent) {
        const node = (event.message.payload as { node: { id: string } }).node;
        void this.thumbs.removeNode(node.id).catch(() => {});
      }
    });
  }

  /** Startup: queue media never processed, then work the queue. */
  start(): void {
    if (this.deps.config.mediaWorkersAtStart) {
      this.warming = setTimeout(() => this.pool.warm(), WARM_AFTER_MS);
      this.warming.unref();
    }
    try {
      const { store } = this.deps;
      const queued = store.media.backfill(this.deps.now());
      if (queued > 0) this.deps.log.info('media queued for processing', { count: queued });
      if (this.tools.ffmpeg) {
        const again = store.transaction(() => store.media.requeueWaitingFor('ffmpeg', this.deps.now()));
        if (again > 0) this.deps.log.info('videos stored without ffmpeg queued for their posters', { count: again });
      }
    } catch (error) {
      // A full disk at start: what is already queued still waits for space; the rest is found at a later start.
      if (!this.storage.noteFailure(error)) throw error;
    }
    this.pump();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.warming) clearTimeout(this.warming);
    this.unsubscribe();
    this.unwatchStorage();
    this.backoff.stop();
    this.pool.close();
    await this.idle();
  }

  /** Resolves when nothing is being processed and nothing waits (tests, shutdown). */
  idle(): Promise<void> {
    if (this.running === 0 && (this.stopped || this.deps.store.media.pending() <= this.deferred.size)) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Whether thumbnails are being made or wait to be (work on a drive that is away aside): background work goes after them. */
  busy(): boolean {
    return this.running > 0 || this.deps.store.media.pending() > this.deferred.size;
  }

  thumbnail(actor: Actor, nodeId: string, size: ThumbnailSize): ThumbnailFile {
    return this.thumbnailOf(this.access.node(actor, nodeId, 'read'), size);
  }

  /** `node` must be one the caller may read: access is checked before this. */
  thumbnailOf(node: NodeRow, size: ThumbnailSize): ThumbnailFile {
    if (!node.has_thumbnail) throw new AppError('no_thumbnail');
    if (node.rotation) return this.turned(node, size);
    return {
      etag: `"${node.id}-${node.version}-${size}"`,
      open: async () => (await this.thumbs.open(node.id, node.version, size)) ?? Readable.from([await this.render(node, size)]),
    };
  }

  /**
   * A turned photo's thumbnail (photo-edits.ts): the cached one turned as it is sent, about 5-15 ms
   * of libvips for a 512 or 1024 px WebP, rather than a second cache to keep in step with every
   * edit. The validator names the turn, so a browser's copy of the unturned one is not reused.
   */
  private turned(node: NodeRow, size: ThumbnailSize): ThumbnailFile {
    return {
      etag: `"${node.id}-${node.version}-${size}-r${node.rotation}"`,
      open: async () => {
        const source = (await this.thumbs.readBuffer(node.id, node.version, size)) ?? (await this.render(node, size));
        return Readable.from([await sharp(source).rotate(node.rotation).webp({ quality: 78, effort: 2 }).toBuffer()]);
      },
    };
  }

  private render(node: NodeRow, size: ThumbnailSize): Promise<Buffer> {
    const key = `${node.id}-${node.version}-${size}`;
    let running = this.rendering.get(key);
    if (!running) {
      running = this.renderNow(node, size).finally(() => this.rendering.delete(key));
      this.rendering.set(key, running);
    }
    return running;
  }

  /**
   * A size the queue did not make (the full-screen one of most photos), or a cache that was
   * cleared: made from the content by a media worker, ahead of the queued uploads because
   * someone is waiting for it, then kept in the cache.
   */
  private async renderNow(node: NodeRow, size: ThumbnailSize): Promise<Buffer> {
    const { store } = this.deps;
    const version = store.versions.current(node.id);
    if (!version || version.version !== node.version) throw new AppError('no_thumbnail');
    const file = this.content.of(version.library_id).pathOf(version.blob);
    const info = await this.pool.process(file, version.mime_type ?? node.mime_type ?? '', [size], { urgent: true });
    const data = info.thumbnails?.get(size);
    if (!data) {
      this.deps.log.warn('thumbnail not rendered on request', { node_id: node.id, size, reason: info.failure });
      throw new AppError('no_thumbnail');
    }
    try {
      await this.thumbs.write(node.id, node.version, size, data);
    } catch (error) {
      // Shown anyway: the cache is only a cache, and it is filled again once the disk has room.
      if (!this.storage.noteFailure(error))
        this.deps.log.warn('thumbnail not kept in the cache', { node_id: node.id, size, error: String(error) });
      return data;
    }
    // A new version or a permanent delete while this ran has already cleared the node's cache:
    // what was just written would stay behind.
    const now = store.nodes.byId(node.id, '');
    if (!now || now.version !== node.version) await this.thumbs.removeNode(node.id, now?.version).catch(() => {});
    return data;
  }

  /** Up to four children with thumbnails, newest first. */
  previewItems(actor: Actor, folderId: string): NodeRow[] {
    const folder = this.access.node(actor, folderId, 'read');
    if (folder.type !== 'folder') throw new AppError('invalid_input', 'Previews are of folders.', { field: 'id' });
    return this.deps.store.nodes.childrenWithThumbnails(folder.id, actor.userId, PREVIEW_COUNT);
  }

  /** The preview as one image: the children's thumbnails in a 2x2 grid. */
  async mosaic(items: NodeRow[]): Promise<Buffer> {
    if (items.length === 0) throw new AppError('no_thumbnail');
    const tile = 256;
    const tiles = await Promise.all(
      items.map(async (node) => {
        const source =
          (await this.thumbs.readBuffer(node.id, node.version, GRID_SIZE)) ?? (await this.render(node, GRID_SIZE).catch(() => null));
        if (!source) return null;
        // A photo the family turned is turned here too, as its own thumbnail is.
        const turned = node.rotation ? sharp(source).rotate(node.rotation) : sharp(source);
        return turned.resize(tile, tile, { fit: 'cover' }).toBuffer();
      }),
    );
    const composite = tiles.flatMap((input, i) => (input ? [{ input, left: (i % 2) * tile, top: Math.floor(i / 2) * tile }] : []));
    return sharp({ create: { width: tile * 2, height: tile * 2, channels: 3, background: '#e8e8e8' } })
      .composite(composite)
      .webp({ quality: 78 })
      .toBuffer();
  }

  /**
   * Pumps on a later turn of the event loop, never from the promise chain of the job that just
   * ended: a job failing at once (a full database refusing its first write) would otherwise
   * start the next one in the same microtask queue, forever, and the server would answer
   * nothing, not even SIGTERM.
   */
  private schedulePump(): void {
    if (this.pumpScheduled || this.stopped) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    if (this.stopped) return;
    // The data folder's disk does not take thumbnails now: the queue waits (StorageHealth
    // looks at the disk every few seconds and calls again when it has room).
    if (this.storage.state() !== 'ok') return;
    // Two jobs per worker: while this process stores one's thumbnails and commits its result
    // (behind whatever requests its event loop is serving), the worker already decodes the next.
    const limit = this.concurrency * 2;
    while (this.running < limit) {
      const job = this.deps.store.media
        .next(limit + this.inFlight.size + this.deferred.size + this.backoff.waiting)
        .find((j) => !this.inFlight.has(j.node_id) && !this.deferred.has(j.node_id) && this.backoff.ready(j.node_id));
      if (!job) break;
      this.running++;
      this.inFlight.add(job.node_id);
      void this.attempt(job).finally(() => {
        this.running--;
        this.inFlight.delete(job.node_id);
        this.schedulePump();
        if (this.running === 0 && (this.stopped || this.deps.store.media.pending() <= this.deferred.size)) {
          for (const wake of this.idleWaiters.splice(0)) wake();
        }
      });
    }
  }

  /** One try of a job; what a failure means decides whether it, or the whole queue, waits. */
  private async attempt(job: MediaJobRow): Promise<void> {
    try {
      await this.work(job);
      this.backoff.forget(job.node_id);
    } catch (error) {
      if (this.stopped || this.storage.noteFailure(error)) return;
      const outcome = this.backoff.fail(job.node_id);
      if (!outcome.giveUp) {
        this.deps.log.warn('media job failed; trying again later', {
          node_id: job.node_id,
          tries: outcome.failures,
          retry_in_ms: outcome.retryInMs,
          error: String(error),
        });
        return;
      }
      try {
        this.finishFailed(job, `failed ${outcome.failures} times: ${String(error)}`);
      } catch (again) {
        if (!this.storage.noteFailure(again))
          this.deps.log.error('media job could not be given up', { node_id: job.node_id, error: String(again) });
      }
    }
  }

  private async work(job: MediaJobRow): Promise<void> {
    const { store } = this.deps;
    const node = store.nodes.byId(job.node_id, '');
    let version = node ? store.versions.current(node.id) : undefined;
    if (!node || !version || node.version !== job.version) {
      // Gone, or replaced by a newer version whose own job is queued.
      if (job.details_only) store.media.drop(job);
      else store.media.finish(job, { ...NO_FACTS, image_width: null, image_height: null, has_thumbnail: false, state: 'failed' });
      return;
    }
    let file: string;
    try {
      file = this.content.of(version.library_id).pathOf(version.blob);
    } catch (error) {
      // The drive is away: try again at a later start, give up after a few of them.
      if (job.attempts + 1 >= MAX_STARTS_AWAY) {
        this.finishFailed(job, `content unavailable: ${String(error)}`);
      } else {
        store.media.attempt(job.node_id);
        this.deferred.add(job.node_id);
      }
      return;
    }
    const mime = version.mime_type ?? node.mime_type ?? '';
    const sizes = job.details_only ? [] : eagerSizes(mime);
    let info = await this.pool.process(file, mime, sizes);
    // Its content file was merged into another with the same bytes while it was read (the
    // first one may be gone): read again from the one its version now names.
    for (let tries = 0; tries < 3 && info.failure && !this.stopped; tries++) {
      const now = store.versions.current(node.id);
      if (!now || now.version !== version.version || now.blob === version.blob) break;
      version = now;
      info = await this.pool.process(this.content.of(now.library_id).pathOf(now.blob), mime, sizes);
    }
    // Stopping cut the work short: the job stays queued for the next start.
    if (this.stopped) return;
    if (job.details_only) {
      // What the file could not tell again stays as it was. No event either: an upgraded
      // server re-reads every photo it has, and the family's screens need not hear of each.
      if (info.failure) store.media.drop(job);
      else store.media.finishFacts(job, await this.factsOf(info));
      return;
    }
    if (info.thumbnails) {
      for (const [size, data] of info.thumbnails) await this.thumbs.write(node.id, job.version, size, data);
    }
    if (info.failure) this.deps.log.warn('media not rendered', { node_id: node.id, reason: info.failure });
    const facts = await this.factsOf(info);
    const applied = store.transaction(() => {
      const done = store.media.finish(job, {
        ...facts,
        image_width: info.width,
        image_height: info.height,
        has_thumbnail: info.thumbnails !== null,
        state: info.thumbnails ? 'done' : 'failed',
      });
      if (done && info.missingTool) store.media.waitForTool(node.id, info.missingTool);
      else if (done) store.media.notWaitingForTool(node.id);
      return done;
    });
    if (!applied) return;
    await this.thumbs.removeNode(node.id, job.version).catch(() => {});
    if (info.thumbnails) {
      const fresh = store.nodes.byId(node.id, '')!;
      this.deps.bus.publish('node.thumbnail_ready', { node: toNodeDto(fresh) }, this.access.audienceOf(fresh));
    }
  }

  private finishFailed(job: MediaJobRow, reason: string): void {
    this.deps.log.warn('media not processed', { node_id: job.node_id, reason });
    // A re-read that cannot be done leaves the thumbnails and facts it was to add to.
    if (job.details_only) this.deps.store.media.drop(job);
    else this.deps.store.media.finish(job, { ...NO_FACTS, image_width: null, image_height: null, has_thumbnail: false, state: 'failed' });
  }

  /** What is stored of a processed file's details: the place named from its position, and the words search finds it by. */
  private async factsOf(info: MediaInfo): Promise<MediaFacts> {
    const d = info.details;
    const place = d.latitude !== null && d.longitude !== null ? await this.places.placeOf(d.latitude, d.longitude) : null;
    const words = [place?.town, place && countryWords(place.country), d.cameraMake, d.cameraModel].filter(Boolean).join(' ');
    return {
      taken_at: info.takenAt,
      taken_offset: info.takenAt === null ? null : d.takenOffset,
      duration_ms: d.durationMs,
      latitude: d.latitude,
      longitude: d.longitude,
      place_town: place?.town ?? null,
      place_country: place?.country ?? null,
      camera_make: d.cameraMake,
      camera_model: d.cameraModel,
      lens: d.lens,
      f_number: d.fNumber,
      exposure_time: d.exposureTime,
      iso: d.iso,
      focal_length: d.focalLength,
      media_search: mediaSearchText(searchKey(words)),
    };
  }
}
