/**
 * When a job runs: every so often, or once a day at a time of this PC's clock (the nightly
 * backup). An interval counts from the end of the previous run, so a slow run never overlaps
 * the next one.
 */
export type Schedule =
  | {
      everyMs: number;
      /** Also once as soon as the scheduler starts (upkeep a restart should not wait for). */
      atStart?: boolean;
    }
  | { dailyAt: { hour: number; minute: number } };

/** Work the server does on its own, on a schedule: what the scheduler starts, stops and records. */
export interface Job {
  /** Unique among the jobs; said in the log and in the jobs' status. */
  readonly name: string;
  readonly schedule: Schedule;
  /**
   * One run. It stops soon once `signal` aborts (the server is stopping) and is then not
   * counted as failed. A throw is a failure: the job is tried again later, each time later.
   */
  run(signal: AbortSignal): Promise<void>;
}
