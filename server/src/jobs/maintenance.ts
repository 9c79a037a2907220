import type { RateLimiter } from '../services/common/rate-limiter.ts';
import type { Services } from '../services/index.ts';
import type { Job } from './job.ts';
import { jobOfSteps } from './steps.ts';

export const MAINTENANCE = 'maintenance';

/**
 * Upkeep, at start and every `everyMs`: expiries, uploads left behind, drives, the trash past
 * its retention and the holding folders past theirs. Each step on its own (see jobOfSteps): a
 * full disk that refuses the expiry of old sessions must not keep the trash from being emptied.
 */
export function maintenanceJob(services: Services, rateLimiter: RateLimiter, everyMs: number): Job {
  return jobOfSteps(MAINTENANCE, { everyMs, atStart: true }, [
    { name: 'sessions', run: () => services.sessions.expireStale() },
    { name: 'rate limits', run: () => rateLimiter.pruneExpired() },
    { name: 'idempotency keys', run: () => services.idempotency.prune() },
    { name: 'uploads', run: () => services.uploads.expire() },
    { name: 'uploads cut short', run: () => services.uploads.finishCutShort() },
    { name: 'libraries', run: () => services.libraries.refresh() },
    { name: 'trash', run: () => services.nodes.purgeTrash(services.settings.current().trash_retention_days) },
    { name: 'album removals past undo', run: () => services.albumMembers.forgetOldRemovals() },
    { name: 'holding', run: () => services.contentUpkeep.emptyHolding() },
  ]);
}
