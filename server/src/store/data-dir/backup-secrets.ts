import fs from 'node:fs';
import path from 'node:path';
import { writeFileDurably } from '../common/durable-file.ts';

/**
 * The secret keys of off-site (S3) destinations. A run must sign its requests with them, so they
 * cannot be stored hashed. They are kept out of the database on purpose: the database travels
 * in every backup, and a plain USB backup's copy must not hand anyone the keys of the family's
 * off-site bucket. So they live beside backup-key.txt, in `backup-secrets.json` in the data
 * folder (readable by the server's user only, written durably), which no backup copies. A
 * restore from a bucket writes back the secret the owner typed (restore.ts); after a restore
 * from elsewhere, the owner types it again (PATCH the destination).
 */
export const BACKUP_SECRETS_FILE = 'backup-secrets.json';

export class BackupSecrets {
  constructor(private readonly dataDir: string) {}

  get file(): string {
    return path.join(this.dataDir, BACKUP_SECRETS_FILE);
  }

  /** The secret of a destination; null when this server does not have it. */
  get(destinationId: string): string | null {
    return this.all()[destinationId] ?? null;
  }

  set(destinationId: string, secret: string): void {
    this.save({ ...this.all(), [destinationId]: secret });
  }

  remove(destinationId: string): void {
    const all = this.all();
    if (!(destinationId in all)) return;
    delete all[destinationId];
    this.save(all);
  }

  private all(): Record<string, string> {
    try {
      return JSON.parse(fs.readFileSync(this.file, 'utf8')) as Record<string, string>;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw error;
    }
  }

  private save(all: Record<string, string>): void {
    writeFileDurably(this.file, `${JSON.stringify(all, null, 1)}\n`);
  }
}
