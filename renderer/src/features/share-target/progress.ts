import type { UploadItem } from '../upload/index.ts';

/**
 * Where the uploads of one save stand. Saved only when every one of them arrived (files the
 * folder already had are not queued at all, so they count as saved); while any is still on its
 * way, sending; else some did not arrive, and the shared files stay on the phone to try again.
 */
export type SaveProgress = { kind: 'sending' } | { kind: 'saved' } | { kind: 'not-saved'; count: number; reason: string | null };

const FINISHED = new Set(['done', 'failed', 'cancelled']);

export function progressOf(ours: readonly UploadItem[]): SaveProgress {
  if (ours.some((item) => !FINISHED.has(item.status))) return { kind: 'sending' };
  const missing = ours.filter((item) => item.status !== 'done');
  if (missing.length === 0) return { kind: 'saved' };
  return { kind: 'not-saved', count: missing.length, reason: missing.find((item) => item.error)?.error ?? null };
}
