import type { BackupHealthService } from '../services/backup/backup-health.ts';
import type { Job } from './job.ts';

/** How often the server looks whether backups became overdue: time passing alone can make them so. */
export const BACKUP_HEALTH_CHECK_MS = 60_000;

/** Tells the owners (the console's header, the tray) when backups become overdue or no longer are. */
export function backupHealthJob(health: BackupHealthService, everyMs = BACKUP_HEALTH_CHECK_MS): Job {
  return {
    name: 'backup health',
    schedule: { everyMs, atStart: true },
    run: async () => health.check(),
  };
}
