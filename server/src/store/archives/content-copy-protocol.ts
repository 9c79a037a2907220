import type { CopyOrder, CopyResult, StoreOrder, StoreResult } from './content-copy.ts';

/**
 * What the server and a copying thread say to each other (content-copiers.ts, content-copy-worker.ts).
 * Each job also shares two cells of memory with the thread, which blocks while it copies and so
 * cannot read messages: CANCELLED (set once the server stops the job) and TURNS (how many times
 * the run was let go on behind the family's requests; the server adds one on cancel too, so a
 * thread waiting for its turn wakes).
 */
export const CANCELLED = 0;
export const TURNS = 1;
export const JOB_CELLS = 2;

export type ToCopyWorker =
  | { kind: 'copy'; id: number; cells: SharedArrayBuffer; fd: number; order: CopyOrder }
  | { kind: 'store'; id: number; cells: SharedArrayBuffer; source: number; target: number; order: StoreOrder };

export interface CopyFailure {
  damaged: boolean;
  aborted: boolean;
  /** The file being backed up could not be read (not the destination's fault). */
  source: boolean;
  message: string;
  code?: string;
}

export type FromCopyWorker =
  | { kind: 'ready' }
  | { kind: 'bytes'; id: number; n: number }
  | { kind: 'pace'; id: number }
  | { kind: 'done'; id: number; result: CopyResult | StoreResult }
  | { kind: 'failed'; id: number; failure: CopyFailure };
