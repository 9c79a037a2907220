import type Koa from 'koa';
import { AppError } from '../app-error.ts';
import type { ServerConfig } from '../config.ts';
import { addressKey } from '../services/common/rate-limiter.ts';

/** What a refused download is told: one of the downloads running may end within it. */
const RETRY_AFTER_SECONDS = 5;

/** Who a download counts against: its client's address, and the session or link it came by when there is one. */
export interface DownloadHolder {
  ip: string | null;
  sessionId?: string | null | undefined;
  linkToken?: string | null | undefined;
}

/**
 * Downloads being sent, counted per client address (IPv6 by /64, as the limit on guesses counts
 * them), per session and per share link. Each running download holds a file and its buffers
 * until its reader has it all: without a cap, one client (or anyone with a link) opens hundreds
 * at once and holds them, and a stalled reader is only closed after a minute. One more than the
 * limit of any of them is refused at once with 429 `too_many_downloads` and Retry-After, before
 * anything is opened (a zip's one-use ticket is not spent).
 */
export class DownloadSlots {
  private readonly running = new Map<string, number>();

  constructor(private readonly limits: Pick<ServerConfig['downloads'], 'perAddress' | 'perSession' | 'perLink'>) {}

  /** Takes a slot in each of the holder's counts, or none; the returned function gives them back (once). */
  take(holder: DownloadHolder): () => void {
    const keys = this.keysOf(holder);
    for (const [key, limit] of keys) {
      if ((this.running.get(key) ?? 0) >= limit) {
        throw new AppError('too_many_downloads', undefined, { headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } });
      }
    }
    for (const [key] of keys) this.running.set(key, (this.running.get(key) ?? 0) + 1);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      for (const [key] of keys) {
        const left = (this.running.get(key) ?? 1) - 1;
        if (left > 0) this.running.set(key, left);
        else this.running.delete(key);
      }
    };
  }

  private keysOf(holder: DownloadHolder): [string, number][] {
    const keys: [string, number][] = [[`address:${addressKey(holder.ip)}`, this.limits.perAddress]];
    if (holder.sessionId) keys.push([`session:${holder.sessionId}`, this.limits.perSession]);
    if (holder.linkToken) keys.push([`link:${holder.linkToken}`, this.limits.perLink]);
    return keys;
  }
}

/** Holds a download slot for `holder` until the response is finished or its connection closes. */
export function holdDownloadSlot(ctx: Koa.Context, slots: DownloadSlots, holder: DownloadHolder): void {
  const release = slots.take(holder);
  ctx.res.once('close', release);
  ctx.res.once('finish', release);
}
