import type { PlaybackRow } from '../../store/database/playback.repo.ts';
import type { ServiceDeps } from '../common/context.ts';

/** What the copies need of the accounts' quotas. */
export interface CopyQuota {
  /** Bytes the account may still take (its uploads under way held back); Infinity without a quota. */
  room(ownerId: string): number;
  /** The account's usage changed (a copy of its video was made or went): it hears so. */
  changed(ownerId: string): void;
}

type Content = Pick<PlaybackRow, 'library_id' | 'blob'>;

/**
 * Playback copies count against the quota of the accounts whose videos they are (quota-usage.ts),
 * so a copy is made only within their room: ffmpeg stops at the room there is (-fs), and a copy
 * that reached it is not kept. Such a video waits, saying why (over_quota), until its owners
 * have more room than that try took: the original plays where the browser can, and downloads.
 */
export class PlaybackRoom {
  constructor(
    private readonly deps: Pick<ServiceDeps, 'store'>,
    private readonly quota: CopyQuota,
  ) {}

  /** Bytes a copy of this content may take: the least room among the accounts holding it; Infinity without quotas. */
  of(content: Content): number {
    let room = Infinity;
    for (const owner of this.owners(content)) room = Math.min(room, this.quota.room(owner));
    return room;
  }

  /** Whether the copy waits for room: there is none, or no more than a try found too little. */
  blocked(row: Pick<PlaybackRow, 'library_id' | 'blob' | 'needs_room'>): boolean {
    return this.of(row) <= row.needs_room;
  }

  /**
   * Whether a copy of `size` bytes, made with `cap` as ffmpeg's limit, may be kept now. One that
   * reached the cap was cut short; one that no longer fits (uploads took the room meanwhile) is
   * not kept either. Either way the row records how far it got, and waits for more room.
   */
  keeps(content: Content, size: number, cap: number): boolean {
    if (size < cap && size <= this.of(content)) return true;
    this.deps.store.playback.outOfRoom(content.library_id, content.blob, size);
    return false;
  }

  /** The accounts a copy is charged to hear that their usage changed. */
  charged(content: Content): void {
    for (const owner of this.owners(content)) this.quota.changed(owner);
  }

  private owners(content: Content): Set<string> {
    return new Set(this.deps.store.playback.holders(content.library_id, content.blob).map((holder) => holder.owner_id));
  }
}
