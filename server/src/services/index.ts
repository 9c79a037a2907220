import type { EventCounts } from '../events/event-counts.ts';
import { BackupService } from './backup/backups.ts';
import { backupServices, type BackupServices } from './backup/compose.ts';
import type { ServiceDeps } from './common/context.ts';
import { FamilyFirst } from './common/family-first.ts';
import { IdempotencyService } from './common/idempotency.ts';
import { fileCore, fileTransfers, type FileServices } from './files/compose.ts';
import { galleryFilters } from './photos/gallery.ts';
import { photoServices, type PhotoServices } from './photos/compose.ts';
import { identityServices, type IdentityServices } from './identity/compose.ts';
import { notificationServices, type NotificationServices } from './notifications/compose.ts';
import type { ServiceParts } from './parts.ts';
import { serverServices, type ServerServices } from './server/compose.ts';
import { SettingsService } from './server/settings.ts';
import { sharingServices, type SharingServices } from './sharing/compose.ts';
import { storageServices, type StorageServices } from './storage/compose.ts';

export type { ServerKeys, ServiceParts } from './parts.ts';

/** Every service, by its name: what routes, jobs and the server's areas call. */
export interface Services
  extends
    CommonServices,
    IdentityServices,
    FileServices,
    PhotoServices,
    SharingServices,
    StorageServices,
    ServerServices,
    BackupServices,
    NotificationServices {}

interface CommonServices {
  /** Requests being answered, which background work (backups) waits behind. */
  familyFirst: FamilyFirst;
  /** Each account's count of events sent, which answers and the socket carry (a page knows what it missed). */
  eventCounts: EventCounts;
  idempotency: IdempotencyService;
}

/**
 * Composes the services, each domain in its own `compose.ts` (a new service is one line there).
 * The order is what they are made with: settings and the identity first, the backup service
 * before the files (their merges wait for a backup run), photos on the files' core and before
 * the transfers (uploads join albums, merges move playback copies), the restore after all.
 */
export function createServices(deps: ServiceDeps, parts: ServiceParts): Services {
  const familyFirst = new FamilyFirst();
  const settings = new SettingsService(deps, () => parts.origin.reach());
  const identity = identityServices(deps, settings, parts.keys);
  const backup = new BackupService(deps, parts.content, parts.serverId, familyFirst);
  const sessions = identity.sessions;
  const files = fileCore(deps, parts, { settings, sessions }, { galleryFilters });
  const { playbackQueue, albumAccess, ...photos } = photoServices(deps, parts, settings, files, familyFirst);
  const transfers = fileTransfers(
    deps,
    parts,
    files,
    { sessions, familyFirst, backup },
    {
      galleryFilters,
      uploadTargets: photos.albumUploads,
      contentMoved: () => playbackQueue.contentMoved(),
    },
  );
  const backups = backupServices(deps, parts, { backup, setupGate: identity.setupGate, files });
  return {
    familyFirst,
    eventCounts: deps.bus.counts,
    idempotency: new IdempotencyService(deps),
    ...identity,
    ...files,
    ...transfers,
    ...photos,
    ...sharingServices(deps, parts.keys.link, files, { albums: photos.albums, albumAccess }),
    ...storageServices(deps, parts),
    ...backups,
    ...serverServices(deps, parts, { settings, setupGate: identity.setupGate, restore: backups.restore }),
    ...notificationServices(deps),
  };
}
