import type { ServiceDeps } from '../common/context.ts';
import type { ServiceParts } from '../parts.ts';
import { DriveMounts } from './drive-mounts.ts';
import { DriveService } from './drives.ts';
import { LibraryService } from './libraries.ts';
import type { StorageHealth } from './storage-health.ts';

export interface StorageServices {
  libraries: LibraryService;
  drives: DriveService;
  /** Whether the disks take writes: a full or read-only one is answered 507/503, never 500. */
  storage: StorageHealth;
}

/** Where the files live: libraries, drives and the disks' health. */
export function storageServices(deps: ServiceDeps, { content, storage }: ServiceParts): StorageServices {
  const mounts = new DriveMounts(deps);
  const libraries = new LibraryService(deps, content, mounts);
  return { libraries, drives: new DriveService(deps, libraries, mounts), storage };
}
