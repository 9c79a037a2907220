import { AppError } from '../../app-error.ts';
import type { BackupKitState } from '../../contract/backup-responses.ts';
import { BackupKeyFile } from '../../store/backup-key.ts';
import { requireAdmin, type Actor, type ServiceDeps } from '../common/context.ts';

/** Said on the Backups page while an encrypted backup's key was never kept. */
export const KIT_REMINDER = 'Download your emergency kit: without it this backup cannot be restored.';

const SAVED = 'backup_kit_saved';

interface SavedRecord {
  at: number;
  /** The key the owner kept (its public half): a kit kept for another key proves nothing for this one. */
  public_key: string;
}

/**
 * Whether the owner kept the emergency kit. Fetching the kit is no proof that it was saved (a
 * dialog opened and closed fetches it too), so the owner says so: "I have saved the kit" in the
 * kit's dialog, offered once they downloaded or printed it. Until then, an encrypted destination
 * comes with a reminder, since its backups are worthless without the key.
 */
export class EmergencyKitService {
  private readonly keyFile: BackupKeyFile;

  constructor(private readonly deps: ServiceDeps) {
    this.keyFile = new BackupKeyFile(deps.config.dataDir);
  }

  async state(actor: Actor): Promise<BackupKitState> {
    requireAdmin(actor);
    const key = await this.keyFile.read();
    const saved = this.deps.store.meta.get<SavedRecord>(SAVED);
    const savedAt = key !== null && saved?.public_key === key.recipient ? saved.at : null;
    const encrypted = this.deps.store.backup.all().some((row) => row.encrypted === 1);
    return { saved_at: savedAt, reminder: encrypted && savedAt === null ? KIT_REMINDER : null };
  }

  /** The owner says the kit is kept (downloaded or printed). 404 while there is no key to keep. */
  async markSaved(actor: Actor): Promise<BackupKitState> {
    requireAdmin(actor);
    const key = await this.keyFile.read();
    if (key === null) throw new AppError('not_found', 'There is no backup key yet: open the emergency kit first.');
    this.deps.store.meta.put(SAVED, { at: this.deps.now(), public_key: key.recipient } satisfies SavedRecord);
    return this.state(actor);
  }
}
