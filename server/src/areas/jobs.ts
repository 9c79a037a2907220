import { createJobs, Scheduler } from '../jobs/index.ts';
import type { Area, Started } from '../lifecycle.ts';
import type { Composed } from './compose.ts';

/**
 * Upkeep, drive checks, backups and the home network's upkeep (jobs/): started once everything
 * they call runs, stopped before any of it. A job that fails waits longer each time, and a full
 * or read-only disk is logged once by storage, not by every run that meets it.
 */
export const jobs: Area<Composed, Started & { scheduler: Scheduler }> = {
  name: 'jobs',
  start: ({ services, deps, storage, homeNetwork, log }) => {
    const scheduler = new Scheduler(createJobs(services, deps, homeNetwork.upkeep), {
      log,
      alreadyReported: (error) => storage.noteFailure(error) !== null,
    });
    scheduler.start();
    // Room again: uploads whose completion the full disk cut short are finished now, and the
    // jobs the full disk failed run at their usual rhythm again.
    const unwatchStorage = storage.onChange(() => {
      if (storage.summary() !== 'ok') return;
      scheduler.endBackoff();
      void services.uploads.finishCutShort().catch((error) => log.error('uploads not completed', { error: String(error) }));
    });
    return {
      scheduler,
      // A job under way is asked to stop, and waited for: it may be writing to the database.
      stop: async () => {
        unwatchStorage();
        await scheduler.stop();
      },
    };
  },
};
