import type { BackupProblem } from '../../contract/backup-responses.ts';
import { TimeLeft } from './time-left.ts';

/** What a run has done so far: read by the API while it runs. */
export interface RunCounts {
  files: number;
  bytes: number;
  bytes_copied: number;
  problems: BackupProblem[];
  /**
   * What the run will have done at its end, once it has counted (null before): the files and
   * bytes of the snapshot, and of those the bytes it must copy (the rest the destination holds).
   * Kept true as it goes: a file that turns out another size, already there, or unreadable
   * changes them, so that a run that ends well ends with files = files_total and bytes_copied = bytes_to_copy.
   */
  files_total: number | null;
  bytes_total: number | null;
  bytes_to_copy: number | null;
  /** The recent pace, for the time left. */
  timeLeft: TimeLeft;
}

/** A run's counts before it starts; `now`: the server's clock, which the pace is measured with. */
export function newCounts(now: () => number): RunCounts {
  return {
    files: 0,
    bytes: 0,
    bytes_copied: 0,
    problems: [],
    files_total: null,
    bytes_total: null,
    bytes_to_copy: null,
    timeLeft: new TimeLeft(now),
  };
}
