import { BackupArchive, type ArchiveStorage } from '../../store/archives/backup-archive.ts';
import type { BackupKey } from '../../store/data-dir/backup-key.ts';
import type { BackupSecrets } from '../../store/data-dir/backup-secrets.ts';
import type { BackupDestinationRow } from '../../store/database/backup.repo.ts';
import { S3Storage } from '../../store/archives/s3-storage.ts';
import { placeOfRow } from './s3-destination.ts';

/** Where a destination's archive is: a folder's path, or its bucket with the secret kept outside the database. */
export function storageOfDestination(row: BackupDestinationRow, secrets: BackupSecrets): string | ArchiveStorage {
  const place = placeOfRow(row, row.kind === 's3' ? secrets.get(row.id) : null);
  return place === null ? row.path : new S3Storage(place);
}

/**
 * The archive of a destination, for reading what it holds (browsing a snapshot, restoring one
 * file): a folder or a bucket alike, through the archive's reading methods (manifest, read,
 * snapshots). The key proves its snapshots (plain or encrypted) and decrypts an encrypted one.
 */
export function openDestinationArchive(row: BackupDestinationRow, key: BackupKey | null, secrets: BackupSecrets): Promise<BackupArchive> {
  return BackupArchive.open(storageOfDestination(row, secrets), { create: false, key });
}
