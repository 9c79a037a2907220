import type { NotificationCauses } from '../services/notifications/causes.ts';
import type { NotificationService } from '../services/notifications/notifications.ts';
import type { Job } from './job.ts';

/** Backups go stale by time passing alone: looked at every hour. */
export const STALE_CHECK_MS = 60 * 60_000;

/**
 * Tells the owners of a scheduled backup that has not succeeded for two days, and a person whose
 * phone has not backed up for a week; then clears old notifications (read ones after 90 days, any
 * after a year: NotificationService.prune), which also grow by time passing alone.
 */
export function staleNotificationsJob(causes: NotificationCauses, notifications: NotificationService, everyMs = STALE_CHECK_MS): Job {
  return {
    name: 'stale backup notifications',
    schedule: { everyMs, atStart: true },
    run: async () => {
      causes.checkStale();
      notifications.prune();
    },
  };
}
