import type { MediaTools } from '../../media/media-info.ts';
import { judge, type CopyPlan } from '../../media/playback-rules.ts';
import { copyArguments, runTranscode, TranscodeError, type PriorityTools, type TranscodeHandle } from '../../media/transcode.ts';
import { NotAVideoError, videoInput } from '../../media/video-input.ts';
import type { VideoProbe } from '../../media/video-probe.ts';
import type { ContentStores } from '../../store/content/content-stores.ts';
import { freeBytes } from '../../store/common/disk-space.ts';
import type { PlaybackFiles } from '../../store/content/playback-files.ts';
import type { PlaybackRow } from '../../store/database/playback.repo.ts';
import type { ServiceDeps } from '../common/context.ts';
import type { StorageHealth } from '../storage/storage-health.ts';
import type { AccessService } from '../files/access.ts';
import type { JobBackoff } from './media-backoff.ts';
import { keyOf } from './playback-keys.ts';
import type { PlaybackRoom } from './playback-room.ts';

/** Address space ffmpeg may take while making a copy: room for x264's threads on a many-core PC, not for a runaway decoder. */
const TRANSCODE_MEMORY_BYTES = 8 * 1024 ** 3;
/** ffmpeg that writes nothing for this long (paused time aside) is stopped: the file makes it spin. */
const STALL_MS = 5 * 60_000;
/** How often free space is looked at while a copy is made (while the queue waits for room: as often as a full disk is, storageRecheckMs). */
const SPACE_CHECK_MS = 5_000;

/** What the queue needs of the thumbnail queue: to go after it. */
export interface ThumbnailQueue {
  idle(): Promise<void>;
  busy(): boolean;
}

/** What making a copy tells the queue around it. */
export interface MakingHost {
  filesOf(libraryId: string): PlaybackFiles;
  /** The queue's view changed: published now, or with the progress events' limit. */
  changed(now: boolean): void;
  /** A copy ended, made or not: whoever waits for an idle queue looks again. */
  settled(): void;
}

interface Making {
  key: string;
  libraryId: string;
  blob: string;
  startedAt: number;
  durationSeconds: number | null;
  progress: number;
  handle: TranscodeHandle | null;
  /** Why it was stopped from outside (switched off, its content went, the disk filled): not a failure of the file. */
  stoppedFor: string | null;
}

/**
 * The one copy made at a time: ffmpeg at the lowest priority (transcode.ts), paused outright
 * (SIGSTOP) whenever photos arrive, written to a temp name and renamed into place once whole,
 * kept only within its owners' quotas.
 */
export class CopyMaker {
  private making: Making | null = null;
  /** Tone-mapping an HDR video failed once: its next try makes a plain copy. */
  private readonly withoutTonemap = new Set<string>();
  private thumbnailsWaiting = false;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly access: AccessService,
    private readonly content: ContentStores,
    private readonly tools: MediaTools,
    private readonly thumbnails: ThumbnailQueue,
    private readonly storage: StorageHealth,
    private readonly priority: PriorityTools,
    private readonly room: PlaybackRoom,
    private readonly backoff: JobBackoff,
    private readonly host: MakingHost,
  ) {}

  /** The content being made now, and how far. */
  current(): { key: string; progress: number } | null {
    return this.making ? { key: this.making.key, progress: this.making.progress } : null;
  }

  /** The copy under way, for the owner's view. */
  underWay(): Pick<Making, 'durationSeconds' | 'progress' | 'startedAt'> | null {
    return this.making;
  }

  async make(row: PlaybackRow): Promise<void> {
    const key = keyOf(row);
    const probe = JSON.parse(row.probe ?? 'null') as VideoProbe | null;
    const verdict = probe ? judge(probe) : null;
    if (!probe || !verdict?.needed) {
      // Probed by an older rule that no longer asks for a copy: nothing to make.
      this.deps.store.playback.notNeeded(row.library_id, row.blob);
      return;
    }
    const files = this.host.filesOf(row.library_id);
    const source = this.content.of(row.library_id).pathOf(row.blob);
    const making: Making = {
      key,
      libraryId: row.library_id,
      blob: row.blob,
      startedAt: this.deps.now(),
      durationSeconds: probe.durationSeconds,
      progress: 0,
      handle: null,
      stoppedFor: null,
    };
    this.making = making;
    this.host.changed(true);
    const spaceWatch = setInterval(() => {
      // The room kept for photos: a copy that eats into half of it stops, and waits for space.
      const free = freeBytes(files.libraryRoot) ?? Infinity;
      if (free < this.deps.config.playbackKeepFreeBytes / 2) this.stop('the disk is running out of room');
    }, SPACE_CHECK_MS);
    spaceWatch.unref();
    try {
      await this.transcode(row, source, probe, verdict.plan, making, files);
    } catch (error) {
      await files.discardTemp(row.blob).catch(() => {});
      const fault = this.storage.noteFailure(error, files.root);
      if (!fault) this.failed(row, key, error, false);
    } finally {
      clearInterval(spaceWatch);
      this.making = null;
      this.host.changed(true);
      this.host.settled();
    }
  }

  private async transcode(
    row: PlaybackRow,
    source: string,
    probe: VideoProbe,
    plan: CopyPlan,
    making: Making,
    files: PlaybackFiles,
  ): Promise<void> {
    const key = making.key;
    const temp = await files.prepare(row.blob);
    const tonemap = !this.withoutTonemap.has(key);
    const input = await videoInput(source);
    const cap = this.room.of(row);
    const maxBytes = Number.isFinite(cap) ? cap : null;
    const handle = runTranscode(this.tools.ffmpeg!, copyArguments(input, temp, probe, plan, { tonemap, maxBytes }), this.priority, {
      memoryBytes: TRANSCODE_MEMORY_BYTES,
      stallMs: STALL_MS,
      onProgress: (seconds) => {
        making.progress = probe.durationSeconds ? Math.min(1, seconds / probe.durationSeconds) : 0;
        this.host.changed(false);
      },
    });
    making.handle = handle;
    if (making.stoppedFor) handle.kill();
    if (handle.pid) await files.notePid(row.blob, handle.pid).catch(() => {});
    // Photos that arrived while it started go first.
    this.yieldToThumbnails();
    const failure = await handle.done.then(
      () => null,
      (error: unknown) => error,
    );
    if (failure !== null || making.stoppedFor) {
      await files.discardTemp(row.blob).catch(() => {});
      if (making.stoppedFor) {
        this.deps.log.info('playback copy stopped', { blob: row.blob, why: making.stoppedFor });
        return;
      }
      this.failed(row, key, failure, plan.hdr && tonemap);
      return;
    }
    // Before the rename (a crash after it makes the copy ready at start), and again as it is marked ready.
    if (!this.room.keeps(row, await files.tempSize(row.blob), cap)) {
      await files.discardTemp(row.blob);
      this.outOfRoom(row);
      return;
    }
    const size = await files.commit(row.blob);
    if (!this.room.keeps(row, size, cap)) {
      await files.remove(row.blob);
      this.outOfRoom(row);
      return;
    }
    if (!this.deps.store.playback.ready(row.library_id, row.blob, size, this.deps.now())) {
      // Its content went while it was made (deleted for good, a new version): so does the copy.
      await files.remove(row.blob);
      return;
    }
    this.room.charged(row);
    this.backoff.forget(key);
    this.withoutTonemap.delete(key);
    this.deps.log.info('playback copy made', {
      blob: row.blob,
      bytes: size,
      seconds: Math.round((this.deps.now() - making.startedAt) / 1000),
      video_seconds: probe.durationSeconds,
    });
    this.announce(row, 'ready');
  }

  /** Stops the copy under way, if any, for a reason that is not the file's fault. */
  stop(why: string): void {
    const making = this.making;
    if (!making || making.stoppedFor) return;
    making.stoppedFor = why;
    making.handle?.kill();
  }

  /** Stops the copy under way while the thumbnail queue has work, and lets it go on once that is done. */
  yieldToThumbnails(): void {
    const handle = this.making?.handle;
    if (!handle || this.thumbnailsWaiting) return;
    // The event that called this is published with its job already queued (same transaction).
    if (!this.thumbnails.busy()) return;
    this.thumbnailsWaiting = true;
    handle.pause();
    void this.thumbnails.idle().then(() => {
      this.thumbnailsWaiting = false;
      handle.resume();
    });
  }

  private failed(row: PlaybackRow, key: string, error: unknown, tonemapped: boolean): void {
    if (error instanceof TranscodeError && error.diskFull) {
      // Not the file's fault: the queue waits for room (nextToMake looks at free space first).
      this.deps.log.warn('playback copy stopped: the disk is full', { blob: row.blob });
      return;
    }
    if (tonemapped) this.withoutTonemap.add(key);
    const outcome = error instanceof NotAVideoError ? { giveUp: true, failures: 1 } : this.backoff.fail(key);
    if (!outcome.giveUp) {
      this.deps.log.warn('playback copy failed; trying again later', { blob: row.blob, tries: outcome.failures, error: String(error) });
      return;
    }
    this.deps.log.warn('no playback copy can be made of this video', { blob: row.blob, error: String(error) });
    this.deps.store.playback.failed(row.library_id, row.blob, String(error));
    this.announce(row, 'failed');
  }

  private outOfRoom(row: PlaybackRow): void {
    this.deps.log.info("playback copy waits for room in its owners' quota", { blob: row.blob });
    this.announce(row, 'over_quota');
  }

  /** Tells everyone who can see a file of this content that its copy is ready (or will not be, or not now). */
  private announce(row: Pick<PlaybackRow, 'library_id' | 'blob'>, copy: 'ready' | 'failed' | 'over_quota'): void {
    for (const holder of this.deps.store.playback.holders(row.library_id, row.blob)) {
      this.deps.bus.publish('node.playback_changed', { node_id: holder.id, copy }, this.access.audienceOf(holder));
    }
  }
}
