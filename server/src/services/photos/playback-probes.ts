import type { MediaTools } from '../../media/media-info.ts';
import { judge } from '../../media/playback-rules.ts';
import { NotAVideoError, videoInput } from '../../media/video-input.ts';
import { probeVideo, type VideoProbe } from '../../media/video-probe.ts';
import type { ContentStores } from '../../store/content/content-stores.ts';
import type { PlaybackRow } from '../../store/database/playback.repo.ts';
import type { ServiceDeps } from '../common/context.ts';
import type { JobBackoff } from './media-backoff.ts';
import { BATCH, keyOf } from './playback-keys.ts';

const PROBE_MEMORY_BYTES = 2 * 1024 ** 3;
/** What looking at a video tells the queue around it. */
export interface ProbeHost {
  stopped(): boolean;
  /** A video turned out to need a copy: the queue's view changed, and it has work. */
  needsCopy(): void;
}

/**
 * Looking at videos (a probe of the file's headers): quick, so it goes before any copy is made
 * and a new video's state is known at once.
 */
export class VideoProbes {
  /** Probes under way, by content: asked twice (a viewer and the queue), probed once. */
  private readonly probing = new Map<string, Promise<void>>();

  constructor(
    private readonly deps: ServiceDeps,
    private readonly content: ContentStores,
    private readonly tools: MediaTools,
    private readonly backoff: JobBackoff,
    private readonly host: ProbeHost,
  ) {}

  get running(): number {
    return this.probing.size;
  }

  /** Waits for the probes under way (the server is stopping). */
  async settled(): Promise<void> {
    await Promise.allSettled(this.probing.values());
  }

  /** Looks at a content file now (a viewer is waiting for the answer); once, however many ask. */
  probeNow(row: PlaybackRow): Promise<void> {
    const key = keyOf(row);
    let running = this.probing.get(key);
    if (!running) {
      running = this.probe(row).finally(() => this.probing.delete(key));
      this.probing.set(key, running);
    }
    return running;
  }

  /** Looks at the next video not looked at yet; false when there is none to look at now. */
  async probeNext(): Promise<boolean> {
    if (!this.tools.ffmpeg && !this.tools.ffprobe) return false;
    const row = this.deps.store.playback
      .next('unprobed', BATCH)
      .find((r) => this.content.isOnline(r.library_id) && this.backoff.ready(`probe:${keyOf(r)}`));
    if (!row) return false;
    await this.probeNow(row);
    return true;
  }

  private async probe(row: PlaybackRow): Promise<void> {
    const key = keyOf(row);
    const file = this.content.of(row.library_id).pathOf(row.blob);
    let probe: VideoProbe;
    try {
      probe = await probeVideo(await videoInput(file), this.tools, PROBE_MEMORY_BYTES);
    } catch (error) {
      if (this.host.stopped()) return;
      // A file whose bytes are no video is not tried again: they will not change.
      const outcome = error instanceof NotAVideoError ? { giveUp: true } : this.backoff.fail(`probe:${key}`);
      if (outcome.giveUp) {
        this.deps.log.warn('video not readable: no playback copy', { blob: row.blob, error: String(error) });
        this.deps.store.playback.failed(row.library_id, row.blob, `not readable: ${String(error)}`);
      }
      return;
    }
    this.backoff.forget(`probe:${key}`);
    const verdict = judge(probe);
    if (this.deps.store.playback.probed(row.library_id, row.blob, JSON.stringify(probe), verdict.needed)) {
      this.deps.log.info(verdict.needed ? 'video needs a playback copy' : 'video plays as it is', { blob: row.blob, why: verdict.why });
      if (verdict.needed) this.host.needsCopy();
    }
  }
}
