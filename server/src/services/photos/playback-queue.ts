import type { PlaybackQueue as QueueView, QueuePause } from '../../contract/playback-responses.ts';
import type { MediaTools } from '../../media/media-info.ts';
import type { PriorityTools } from '../../media/transcode.ts';
import type { ContentStores } from '../../store/content/content-stores.ts';
import { freeBytes } from '../../store/common/disk-space.ts';
import { PlaybackFiles } from '../../store/content/playback-files.ts';
import type { PlaybackRow } from '../../store/database/playback.repo.ts';
import type { ServiceDeps } from '../common/context.ts';
import type { StorageHealth } from '../storage/storage-health.ts';
import type { AccessService } from '../files/access.ts';
import { JobBackoff } from './media-backoff.ts';
import { checkLibraryCopies } from './playback-check.ts';
import { BATCH, keyOf } from './playback-keys.ts';
import { CopyMaker, type ThumbnailQueue } from './playback-making.ts';
import { VideoProbes } from './playback-probes.ts';
import type { PlaybackRoom } from './playback-room.ts';

/** The owners hear how a copy goes at most this often. */
const PROGRESS_EVENT_MS = 2_000;
/** Rows no current content needs are looked for this long after the last delete or new version, and every so often (merged duplicates publish nothing). */
const SWEEP_DELAY_MS = 2_000;
const SWEEP_EVERY_MS = 10 * 60_000;

/**
 * The queue of playback copies: one video looked at or copied at a time, in the background.
 * Looking (a probe of the file's headers) is quick and goes first, so a new video's state is
 * known at once. Making a copy waits until the thumbnail queue is empty, runs ffmpeg at the
 * lowest priority (transcode.ts), and is paused outright (SIGSTOP) whenever photos arrive, so it
 * never holds up an upload's thumbnails. It waits while copies are switched off, while the disk
 * of the videos has too little room, and while their drive is away.
 *
 * The queue is the database's (playback_copies): a restart, or a kill -9, resumes it. A copy is
 * written to a temp name and renamed into place once whole, so a cut-short copy is never served
 * (the start-up check takes away what a crash left). Copies are keyed by content file, and go
 * when no file's current content is theirs any more (deleted for good, a new version).
 */
export class PlaybackQueue {
  private readonly backoff: JobBackoff;
  private readonly probes: VideoProbes;
  private readonly maker: CopyMaker;
  private pause: QueuePause | null = null;
  private wakeUp: (() => void) | null = null;
  private stopped = false;
  private loop: Promise<void> | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private lastSweep = 0;
  private lastProgressEvent = 0;
  private idleWaiters: (() => void)[] = [];
  /** The loop sleeps with nothing it can do now: nothing to look at, and no copy it may make. */
  private resting = false;
  private readonly unsubscribe: () => void;
  private readonly unwatchStorage: () => void;

  constructor(
    private readonly deps: ServiceDeps,
    access: AccessService,
    private readonly content: ContentStores,
    private readonly tools: MediaTools,
    private readonly thumbnails: ThumbnailQueue,
    private readonly storage: StorageHealth,
    private readonly enabled: () => boolean,
    priority: PriorityTools,
    /** Room in the quotas of the accounts whose videos the copies are. */
    private readonly room: PlaybackRoom,
  ) {
    this.backoff = new JobBackoff(deps.now, () => this.wake(), deps.config.mediaRetryMs);
    this.probes = new VideoProbes(deps, content, tools, this.backoff, {
      stopped: () => this.stopped,
      needsCopy: () => {
        this.publishQueue(true);
        this.wake();
      },
    });
    this.maker = new CopyMaker(deps, access, content, tools, thumbnails, storage, priority, room, this.backoff, {
      filesOf: (libraryId) => this.filesOf(libraryId),
      changed: (now) => this.publishQueue(now),
      settled: () => this.notifyIdle(),
    });
    this.unwatchStorage = storage.onChange(() => this.wake());
    this.unsubscribe = deps.bus.subscribe(({ message }) => {
      switch (message.type) {
        case 'node.created':
        case 'node.updated': {
          const node = (message.payload as { node: { id: string; type: string; mime_type: string | null } }).node;
          if (node.type === 'file' && node.mime_type?.startsWith('video/')) this.noteVideo(node.id);
          if (message.type === 'node.updated') this.sweepSoon();
          // Photos arriving go first: the copy under way stops until their thumbnails are made.
          this.maker.yieldToThumbnails();
          break;
        }
        case 'node.deleted':
          if ((message.payload as { permanent: boolean }).permanent) this.sweepSoon();
          break;
        case 'server.settings_changed':
          if (!this.enabled()) this.maker.stop('copies were switched off');
          this.wake();
          break;
        // A drive back, or room in someone's quota (a delete, a higher quota): a copy that waited may go.
        case 'library.changed':
        case 'quota.updated':
          this.wake();
          break;
        default:
          break;
      }
    });
  }

  /** At start: takes away what a crash left, checks the copies against their files, finds the videos not known yet, and runs. */
  async start(): Promise<void> {
    for (const [libraryId] of this.content.online()) {
      try {
        await checkLibraryCopies(this.deps, libraryId, this.filesOf(libraryId), (row) => this.lost(row));
      } catch (error) {
        if (!this.storage.noteFailure(error))
          this.deps.log.warn('playback copies not checked', { library_id: libraryId, error: String(error) });
      }
    }
    try {
      const found = this.deps.store.playback.backfill(this.deps.now());
      if (found > 0) this.deps.log.info('videos to look at for playback copies', { count: found });
      await this.sweep();
    } catch (error) {
      // A full disk at start: the rest is found at a later start, or as videos are opened.
      if (!this.storage.noteFailure(error)) throw error;
    }
    this.loop = this.run().catch((error: unknown) => this.deps.log.error('playback copies stopped', { error: String(error) }));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe();
    this.unwatchStorage();
    this.backoff.stop();
    if (this.sweepTimer) clearTimeout(this.sweepTimer);
    this.maker.stop('the server is stopping');
    this.wake();
    await this.loop;
    await this.probes.settled();
  }

  /** Resolves once nothing is waiting to be looked at or made (tests, benchmarks); or when it cannot go on. */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** The content being made now, and how far. */
  current(): { key: string; progress: number } | null {
    return this.maker.current();
  }

  /** A library's copies, where the library is now (a drive may come back at another path). */
  filesOf(libraryId: string): PlaybackFiles {
    return new PlaybackFiles(this.content.of(libraryId).root);
  }

  /** A video file's current content, to look at (uploads, new versions); the queue takes it from there. */
  noteVideo(nodeId: string): void {
    const version = this.deps.store.versions.current(nodeId);
    // A rename or a move publishes node.updated too: nothing to write when the content is known.
    if (!version || this.deps.store.playback.get(version.library_id, version.blob)) return;
    try {
      if (this.deps.store.playback.add(version.library_id, version.blob, this.deps.now())) this.wake();
    } catch (error) {
      // A full disk: the start-up pass finds it later, and opening the video asks for it too.
      if (!this.storage.noteFailure(error)) throw error;
    }
  }

  /** Looks at a content file now (a viewer is waiting for the answer); once, however many ask. */
  probeNow(row: PlaybackRow): Promise<void> {
    return this.probes.probeNow(row);
  }

  /** Files were merged (content-merge.ts): the copy of the one that went goes too. */
  contentMoved(): void {
    this.sweepSoon();
  }

  /** A ready copy's file is missing: made again. */
  lost(row: PlaybackRow): void {
    if (this.deps.store.playback.makeAgain(row.library_id, row.blob, this.deps.now())) {
      this.deps.log.warn('a playback copy was missing: it will be made again', { blob: row.blob });
      this.room.charged(row);
      this.wake();
    }
  }

  /** The owner's view of the queue. */
  view(): QueueView {
    const counts = this.deps.store.playback.counts();
    const making = this.maker.underWay();
    return {
      enabled: this.enabled(),
      waiting: Math.max(0, counts.waiting - (making ? 1 : 0)),
      checking: counts.unprobed,
      making: making ? { duration_seconds: making.durationSeconds, progress: making.progress, started_at: making.startedAt } : null,
      paused: making || counts.waiting === 0 ? null : this.pause,
      ready: counts.ready,
      bytes: counts.bytes,
      failed: counts.failed,
    };
  }

  /**
   * Takes away every copy on the drives that are here (the owner asked, with copies switched
   * off): they wait to be made again, should copies be switched on again. The file first: a
   * crash in between leaves a ready row without its file, which the start-up check makes waiting.
   */
  async removeAll(): Promise<number> {
    this.maker.stop('the owner removed the copies');
    let removed = 0;
    for (const [libraryId] of this.content.online()) {
      const files = this.filesOf(libraryId);
      for (const row of this.deps.store.playback.withFilesOn(libraryId)) {
        if (row.state !== 'ready') continue;
        await files.remove(row.blob);
        this.deps.store.playback.makeAgain(row.library_id, row.blob, row.enqueued_at);
        this.room.charged(row);
        removed++;
      }
    }
    this.publishQueue(true);
    return removed;
  }

  // ------------------------------------------------------------------------------------------

  private wake(): void {
    // Said at once: a caller of idle() right after the event that woke it must wait for the work.
    this.resting = false;
    const wake = this.wakeUp;
    this.wakeUp = null;
    wake?.();
  }

  /** Waits for a wake, or `ms` at most. */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wakeUp = null;
        resolve();
      }, ms);
      // The server's own handles keep the process alive; a sleeping queue must not once it has closed.
      timer.unref();
      this.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private isIdle(): boolean {
    return this.stopped || (this.resting && this.maker.current() === null && this.probes.running === 0);
  }

  private notifyIdle(): void {
    if (this.idleWaiters.length === 0 || !this.isIdle()) return;
    for (const wake of this.idleWaiters.splice(0)) wake();
  }

  private setPause(pause: QueuePause | null): void {
    if (this.pause === pause) return;
    this.pause = pause;
    this.publishQueue(true);
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        if (this.deps.now() - this.lastSweep > SWEEP_EVERY_MS) await this.sweep();
        if (await this.probes.probeNext()) continue;
        const next = this.nextToMake();
        if (next.kind === 'wait') {
          this.setPause(next.pause);
          const sleeping = this.sleep(next.ms);
          this.resting = next.rest;
          this.notifyIdle();
          await sleeping;
          continue;
        }
        // Thumbnails first: a copy starts only once the photos and videos that came are processed.
        if (this.thumbnails.busy()) {
          this.setPause('thumbnails');
          await Promise.race([this.thumbnails.idle(), this.sleep(this.deps.config.storageRecheckMs)]);
          // Whichever came first: the other's timer goes.
          this.wake();
          continue;
        }
        this.setPause(null);
        await this.maker.make(next.row);
      } catch (error) {
        if (this.stopped) return;
        if (!this.storage.noteFailure(error)) this.deps.log.error('playback queue step failed', { error: String(error) });
        await this.sleep(this.deps.config.mediaRetryMs);
      }
    }
    this.notifyIdle();
  }

  /**
   * The next copy to make, or why none is made now and for how long to sleep. `rest`: nothing
   * will happen until something changes (not a try waiting for its turn after a failure).
   */
  private nextToMake(): { kind: 'make'; row: PlaybackRow } | { kind: 'wait'; pause: QueuePause | null; ms: number; rest: boolean } {
    const { store } = this.deps;
    if (store.playback.counts().waiting === 0) return { kind: 'wait', pause: null, ms: SWEEP_EVERY_MS, rest: true };
    if (!this.tools.ffmpeg) return { kind: 'wait', pause: 'unavailable', ms: SWEEP_EVERY_MS, rest: true };
    if (!this.enabled()) return { kind: 'wait', pause: 'off', ms: SWEEP_EVERY_MS, rest: true };
    const rows = store.playback.next('waiting', BATCH).filter((r) => this.backoff.ready(keyOf(r)));
    // Each waits for its next try (the back-off wakes the queue then).
    if (rows.length === 0) return { kind: 'wait', pause: null, ms: SWEEP_EVERY_MS, rest: false };
    const online = rows.filter((r) => this.content.isOnline(r.library_id));
    if (online.length === 0) return { kind: 'wait', pause: 'library_offline', ms: this.deps.config.storageRecheckMs, rest: true };
    // Waiting for room in their owners' quotas: a quota event wakes the queue.
    const withRoom = online.filter((r) => !this.room.blocked(r));
    if (withRoom.length === 0) return { kind: 'wait', pause: 'quota', ms: SWEEP_EVERY_MS, rest: true };
    for (const row of withRoom) {
      const root = this.content.of(row.library_id).root;
      if (this.storage.state(root) === 'ok' && this.freeAfter(row) >= 0) return { kind: 'make', row };
    }
    return { kind: 'wait', pause: 'disk_space', ms: this.deps.config.storageRecheckMs, rest: true };
  }

  /**
   * Bytes to spare on the videos' disk once this copy is made: free space less a generous guess
   * of the copy (twice the original) and the room kept for photos. Negative: no room for it.
   */
  private freeAfter(row: PlaybackRow): number {
    const free = freeBytes(this.content.of(row.library_id).root);
    if (free === null) return Infinity;
    return free - 2 * this.deps.store.playback.originalSize(row.library_id, row.blob) - this.deps.config.playbackKeepFreeBytes;
  }

  private publishQueue(now: boolean): void {
    const at = this.deps.now();
    if (!now && at - this.lastProgressEvent < PROGRESS_EVENT_MS) return;
    this.lastProgressEvent = at;
    try {
      this.deps.bus.publish('playback.queue', { queue: this.view() }, { users: this.deps.store.users.activeAdminIds() });
    } catch (error) {
      if (!this.storage.noteFailure(error)) this.deps.log.warn('playback queue not announced', { error: String(error) });
    }
  }

  private sweepSoon(): void {
    if (this.sweepTimer || this.stopped) return;
    this.sweepTimer = setTimeout(() => {
      this.sweepTimer = null;
      void this.sweep().catch((error: unknown) => {
        if (!this.storage.noteFailure(error)) this.deps.log.warn('playback copies not swept', { error: String(error) });
      });
    }, SWEEP_DELAY_MS);
    this.sweepTimer.unref();
  }

  /**
   * Rows whose content no file has as its current content any more go, with their copy: the
   * row first, so a crash in between leaves a file no row names, which the next start removes.
   */
  private async sweep(): Promise<void> {
    this.lastSweep = this.deps.now();
    const { store } = this.deps;
    for (let rows = store.playback.unreferenced(BATCH); rows.length > 0; rows = store.playback.unreferenced(BATCH)) {
      for (const row of rows) {
        if (this.maker.current()?.key === keyOf(row)) this.maker.stop('its video is gone');
        store.playback.remove(row.library_id, row.blob);
        this.backoff.forget(keyOf(row));
        if (row.state === 'ready' && this.content.isOnline(row.library_id)) {
          await this.filesOf(row.library_id)
            .remove(row.blob)
            .catch(() => {});
        }
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}
