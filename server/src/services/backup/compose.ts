import { BackupKeyFile } from '../../store/data-dir/backup-key.ts';
import { BackupSecrets } from '../../store/data-dir/backup-secrets.ts';
import { SnapshotDbCache } from '../../store/database/snapshot-db.ts';
import type { ServiceDeps } from '../common/context.ts';
import type { FileCore } from '../files/compose.ts';
import type { SetupGate } from '../identity/setup-gate.ts';
import type { ServiceParts } from '../parts.ts';
import { BackupHealthService } from './backup-health.ts';
import type { BackupService } from './backups.ts';
import { EmergencyKitService } from './emergency-kit.ts';
import { ItemRestoreService } from './restore-item.ts';
import { RestoreService } from './restore.ts';
import { SnapshotFilesService } from './snapshot-files.ts';

export interface BackupServices {
  /** Backups to folders: destinations, runs, verify, snapshots and retention. */
  backup: BackupService;
  /** Whether backups are overdue, for the console's header and the tray. */
  backupHealth: BackupHealthService;
  /** The family's files as they were in a snapshot, for the owner to browse. */
  snapshotFiles: SnapshotFilesService;
  /** One file or folder back from a snapshot, beside the current one or in its place. */
  itemRestore: ItemRestoreService;
  /** Snapshot databases copied out for browsing: closed and removed when the server stops. */
  snapshotDbs: SnapshotDbCache;
  /** Whether the owner kept the emergency kit, and the reminder until they do. */
  backupKit: EmergencyKitService;
  /** A fresh install brought back from a backup (setup/restore). */
  restore: RestoreService;
}

/**
 * Backups and what comes back from them. `backup` is made before the file services (their
 * merges wait for a run under way); a restore item goes back among the files.
 */
export function backupServices(
  deps: ServiceDeps,
  { content, storage, restart = () => {} }: ServiceParts,
  { backup, setupGate, files }: { backup: BackupService; setupGate: SetupGate; files: FileCore },
): BackupServices {
  const { dataDir, sqliteEngine } = deps.config;
  const snapshotDbs = new SnapshotDbCache(dataDir, sqliteEngine);
  const snapshotFiles = new SnapshotFilesService(deps, new BackupKeyFile(dataDir), snapshotDbs, new BackupSecrets(dataDir));
  return {
    backup,
    snapshotFiles,
    snapshotDbs,
    restore: new RestoreService(deps, setupGate, restart),
    itemRestore: new ItemRestoreService(
      deps,
      snapshotFiles,
      backup,
      files.files,
      files.nodes,
      files.access,
      files.activity,
      content,
      storage,
    ),
    backupHealth: new BackupHealthService(deps),
    backupKit: new EmergencyKitService(deps),
  };
}
