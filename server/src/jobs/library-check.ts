import type { LibraryService } from '../services/storage/libraries.ts';
import type { Job } from './job.ts';

/**
 * Drives plugged in again and pools after a reboot come back within `everyMs`, without waiting
 * for maintenance; a drive pulled out goes offline. The first check is one interval after start
 * (maintenance does one at start).
 */
export function libraryCheckJob(libraries: LibraryService, everyMs: number): Job {
  return { name: 'library check', schedule: { everyMs }, run: () => libraries.refresh() };
}
