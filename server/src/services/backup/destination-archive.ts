import { BackupArchive } from '../../store/backup-archive.ts';
import type { BackupKey } from '../../store/backup-key.ts';
import type { BackupDestinationRow } from '../../store/backup.repo.ts';

/**
 * The archive of a destination, for reading what it holds (browsing a snapshot, restoring one
 * file). The one place that turns a destination row into an archive for this: a destination of
 * another kind (an S3 bucket) is answered here, and browsing and restoring follow without change.
 * They use only the archive's reading methods (manifest, read, snapshots).
 */
export function openDestinationArchive(row: BackupDestinationRow, key: BackupKey | null): Promise<BackupArchive> {
  return BackupArchive.open(row.path, { create: false, key: row.encrypted ? key : null });
}
