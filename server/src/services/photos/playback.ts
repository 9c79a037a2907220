import type { Readable } from 'node:stream';
import { AppError } from '../../app-error.ts';
import type { CopyState, PlaybackInfo, PlaybackQueue as QueueView } from '../../contract/playback-responses.ts';
import { originalType } from '../../media/playback-rules.ts';
import type { VideoProbe } from '../../media/video-probe.ts';
import type { PlaybackRow } from '../../store/database/playback.repo.ts';
import type { NodeRow } from '../../store/database/nodes.repo.ts';
import type { VersionRow } from '../../store/database/versions.repo.ts';
import { requireAdmin, type Actor, type ServiceDeps } from '../common/context.ts';
import type { AccessService } from '../files/access.ts';
import type { PlaybackQueue } from './playback-queue.ts';
import type { PlaybackRoom } from './playback-room.ts';

/** A playback copy to send, whole or by range. */
export interface PlaybackCopyFile {
  etag: string;
  lastModified: number;
  size: number;
  mime: 'video/mp4';
  filename: string;
  open(range?: { start: number; end: number }): Readable;
}

/**
 * Playback copies as the family and the owner meet them: what a video's copy is doing (the
 * viewer asks when it opens a video), the copy itself under the video's own access rules, and
 * the owner's queue. The work is PlaybackQueue's.
 */
export class PlaybackService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly access: AccessService,
    private readonly queue: PlaybackQueue,
    private readonly room: PlaybackRoom,
    private readonly canMake: boolean,
    private readonly enabled: () => boolean,
  ) {}

  start(): Promise<void> {
    return this.queue.start();
  }

  stop(): Promise<void> {
    return this.queue.stop();
  }

  /** Resolves once nothing waits to be looked at or made, or what waits cannot be made now (tests, benchmarks). */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  /**
   * What the viewer needs to choose between the original and the copy. A video not looked at
   * yet is looked at now: a probe reads the file's headers, a fraction of a second.
   */
  info(actor: Actor, nodeId: string): Promise<PlaybackInfo> {
    return this.infoOf(this.access.node(actor, nodeId, 'read'));
  }

  /** `node` must be one the caller may read (an account's, or one a link opens): access is checked before this. */
  async infoOf(node: NodeRow): Promise<PlaybackInfo> {
    const version = this.currentOf(node);
    let row = this.rowOf(version);
    if (row.state === 'unprobed' && this.canMake) {
      await this.queue.probeNow(row);
      row = this.rowOf(version);
    }
    const probe = row.probe ? (JSON.parse(row.probe) as VideoProbe) : null;
    const video = probe?.video ?? null;
    const sideways = video !== null && Math.abs(Math.round(video.rotation)) % 180 === 90;
    return {
      original: {
        type: probe ? originalType(probe) : null,
        width: video ? (sideways ? video.height : video.width) : (node.image_width ?? null),
        height: video ? (sideways ? video.width : video.height) : (node.image_height ?? null),
        framerate: video?.framesPerSecond ?? null,
        bitrate: video?.bitRate ?? null,
        duration_seconds: probe?.durationSeconds ?? null,
      },
      copy: this.copyState(row),
    };
  }

  /** The copy of a video the caller may read; 404 playback_copy_not_ready until it is made. */
  copy(actor: Actor, nodeId: string): Promise<PlaybackCopyFile> {
    return this.copyOf(this.access.node(actor, nodeId, 'read'));
  }

  /** `node` must be one the caller may read: access is checked before this. */
  async copyOf(node: NodeRow): Promise<PlaybackCopyFile> {
    const version = this.currentOf(node);
    const row = this.deps.store.playback.get(version.library_id, version.blob);
    if (row?.state !== 'ready' || row.made_at === null) throw new AppError('playback_copy_not_ready');
    const files = this.queue.filesOf(version.library_id);
    const size = await files.size(row.blob);
    if (size === null) {
      this.queue.lost(row);
      throw new AppError('playback_copy_not_ready');
    }
    return {
      // A copy made again is other bytes: its time of making is in its validator.
      etag: `"${version.id}.copy${row.made_at}"`,
      lastModified: row.made_at,
      size,
      mime: 'video/mp4',
      filename: `${node.name.replace(/\.[^.]*$/, '')}.mp4`,
      open: (range) => files.read(row.blob, range),
    };
  }

  queueView(actor: Actor): QueueView {
    requireAdmin(actor);
    return this.queue.view();
  }

  /** Frees the space of every copy made; only with copies switched off, else they would be made again at once. */
  async removeAll(actor: Actor): Promise<QueueView> {
    requireAdmin(actor);
    if (this.enabled()) throw new AppError('playback_copies_on');
    const removed = await this.queue.removeAll();
    this.deps.log.info('playback copies removed by the owner', { count: removed });
    return this.queue.view();
  }

  /** A video's current version; 400 for anything else. */
  private currentOf(node: NodeRow): VersionRow {
    if (node.type !== 'file' || !node.mime_type?.startsWith('video/')) {
      throw new AppError('invalid_input', 'Only videos have playback copies.', { field: 'id' });
    }
    const version = this.deps.store.versions.current(node.id);
    if (!version) throw new AppError('not_found');
    return version;
  }

  /** The content's row, made now when the video came in a way the queue did not hear of. */
  private rowOf(version: VersionRow): PlaybackRow {
    const { playback } = this.deps.store;
    const found = playback.get(version.library_id, version.blob);
    if (found) return found;
    this.queue.noteVideo(version.node_id);
    return (
      playback.get(version.library_id, version.blob) ?? {
        library_id: version.library_id,
        blob: version.blob,
        state: 'unprobed',
        probe: null,
        size: 0,
        enqueued_at: this.deps.now(),
        made_at: null,
        failure: null,
        needs_room: 0,
      }
    );
  }

  private copyState(row: PlaybackRow): PlaybackInfo['copy'] {
    const none = { size: null, progress: null, waiting_before: null };
    const state = ((): CopyState => {
      switch (row.state) {
        case 'not_needed':
          return 'not_needed';
        case 'ready':
          return 'ready';
        case 'failed':
          return 'failed';
        case 'unprobed':
          return this.canMake ? 'waiting' : 'unavailable';
        case 'waiting':
          if (!this.canMake) return 'unavailable';
          if (!this.enabled()) return 'off';
          if (this.queue.current()?.key === `${row.library_id}/${row.blob}`) return 'making';
          return this.room.blocked(row) ? 'over_quota' : 'waiting';
      }
    })();
    if (state === 'ready') return { ...none, state, size: row.size };
    if (state === 'making') return { ...none, state, progress: this.queue.current()?.progress ?? 0 };
    if (state === 'waiting') return { ...none, state, waiting_before: this.deps.store.playback.waitingBefore(row) };
    return { ...none, state };
  }
}
