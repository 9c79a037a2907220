import type { UploadItem } from '../../kits/upload/index.ts';

/**
 * Where the uploads of one save stand. Saved only when every one of them arrived (files the
 * folder already had are not queued at all, so they count as saved); while any is still on its
 * way, sending; else some did not arrive, and the shared files stay on the phone to try again.
 */
export type SaveProgress = { kind: 'sending' } | { kind: 'saved' } | { kind: 'not-saved'; count: number; reason: string | null };

const FINISHED = new Set<string>(['done', 'failed', 'cancelled']);

export function progressOf(ours: readonly Pick<UploadItem, 'status' | 'error'>[]): SaveProgress {
  if (ours.some((item) => !FINISHED.has(item.status))) return { kind: 'sending' };
  const missing = ours.filter((item) => item.status !== 'done');
  if (missing.length === 0) return { kind: 'saved' };
  return { kind: 'not-saved', count: missing.length, reason: missing.find((item) => item.error)?.error ?? null };
}

/** The part of the upload queue a save watches. */
export interface WatchedQueue {
  subscribe(listener: () => void): () => unknown;
  state(): { items: readonly UploadItem[] };
}

/**
 * Resolves once the uploads with these keys have all finished, with how the save went. An upload
 * that leaves the queue (closing the panel takes finished ones; signing out takes them all) is
 * judged by how it was when last seen, and one taken away unfinished was not saved: the shared
 * files are let go of only for uploads seen to arrive.
 */
export function whenFinished(queue: WatchedQueue, keys: ReadonlySet<string>): Promise<SaveProgress> {
  const lastSeen = new Map<string, Pick<UploadItem, 'status' | 'error'>>();
  return new Promise((resolve) => {
    let stop: (() => unknown) | null = null;
    let over = false;
    const check = () => {
      if (over) return;
      const present = new Set<string>();
      for (const item of queue.state().items) {
        if (!keys.has(item.key)) continue;
        present.add(item.key);
        lastSeen.set(item.key, item);
      }
      const ours = [...keys].map((key) => {
        const seen = lastSeen.get(key);
        if (present.has(key) && seen) return seen;
        return seen && FINISHED.has(seen.status) ? seen : { status: 'cancelled' as const, error: null };
      });
      const progress = progressOf(ours);
      if (progress.kind === 'sending') return;
      over = true;
      stop?.();
      resolve(progress);
    };
    stop = queue.subscribe(check);
    check();
  });
}
