import type { ServiceDeps } from '../services/common/context.ts';
import type { Services } from '../services/index.ts';
import type { Job } from './job.ts';
import { backupJob } from './backup.ts';
import { backupHealthJob } from './backup-health.ts';
import { contentIndexJob } from './content-index.ts';
import { homeNetworkJobs, type HomeNetworkUpkeep } from './home-network.ts';
import { libraryCheckJob } from './library-check.ts';
import { maintenanceJob } from './maintenance.ts';
import { staleNotificationsJob } from './notifications.ts';

/** Every job the server runs on its own: a new one is a file in jobs/ and a line here. */
export function createJobs(services: Services, { config, rateLimiter }: ServiceDeps, homeNetwork: HomeNetworkUpkeep): Job[] {
  return [
    maintenanceJob(services, rateLimiter, config.maintenanceIntervalMs),
    libraryCheckJob(services.libraries, config.libraryCheckIntervalMs),
    backupJob(services.backup),
    backupHealthJob(services.backupHealth),
    contentIndexJob(services.contentIndex),
    staleNotificationsJob(services.notificationCauses, services.notifications),
    ...homeNetworkJobs(homeNetwork, config.tailnetCheckIntervalMs),
  ];
}

export type { HomeNetworkUpkeep } from './home-network.ts';
export { MAINTENANCE } from './maintenance.ts';
export { Scheduler, type JobStatus } from './scheduler.ts';
