import type { BackupService } from '../services/backup/backups.ts';
import type { Job } from './job.ts';

/** How often the scheduler asks whether a destination's nightly time has come. */
export const BACKUP_CHECK_MS = 60_000;

/**
 * The nightly backups. Each destination has its own time of day (03:00 unless the owner chose
 * another), so the job looks every minute for destinations whose time has come and backs them up
 * one after the other. A time missed while the PC was off is caught up as soon as it is back on;
 * a run that failed is tried again an hour later. A failed run is recorded on its destination
 * (the console shows it in words), not thrown: one unplugged drive must not hold back the others.
 */
export function backupJob(backup: BackupService, everyMs = BACKUP_CHECK_MS): Job {
  return { name: 'backup', schedule: { everyMs, atStart: true }, run: (signal) => backup.runDue(signal) };
}
