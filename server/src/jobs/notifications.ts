import type { NotificationCauses } from '../services/notifications/causes.ts';
import type { Job } from './job.ts';

/** Backups go stale by time passing alone: looked at every hour. */
export const STALE_CHECK_MS = 60 * 60_000;

/** Tells the owners of a scheduled backup that has not succeeded for two days, and a person whose phone has not backed up for a week. */
export function staleNotificationsJob(causes: NotificationCauses, everyMs = STALE_CHECK_MS): Job {
  return {
    name: 'stale backup notifications',
    schedule: { everyMs, atStart: true },
    run: async () => causes.checkStale(),
  };
}
