import { AppError } from '../../app-error.ts';
import type { BackupKitState } from '../../contract/backup-responses.ts';
import { BackupKeyFile } from '../../store/data-dir/backup-key.ts';
import { requireAdmin, type Actor, type ServiceDeps } from '../common/context.ts';

/** Said on the Backups page while an encrypted backup's key was never kept. */
export const KIT_REMINDER = 'Download your emergency kit: without it this backup cannot be restored.';
/** Said while only plain backups exist: they are signed with the kit's key, and their keys.json is sealed to it. */
export const PLAIN_KIT_REMINDER =
  'Download your emergency kit: a new Hearth needs it to restore these backups, with their links and two-step sign-in.';

const SAVED = 'backup_kit_saved';

interface SavedRecord {
  at: number;
  /** The key the owner kept (its public half): a kit kept for another key proves nothing for this one. */
  public_key: string;
}

/**
 * Whether the owner kept the emergency kit. Fetching the kit is no proof that it was saved (a
 * dialog opened and closed fetches it too), so the owner says so: "I have saved the kit" in the
 * kit's dialog, offered once they downloaded or printed it. Until then, any destination comes
 * with a reminder: an encrypted backup is worthless without the key, and a plain one is signed
 * with it (a new Hearth proves it with the kit, and opens its keys.json with it).
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
    const destinations = this.deps.store.backup.all();
    const reminder = destinations.some((row) => row.encrypted === 1) ? KIT_REMINDER : destinations.length > 0 ? PLAIN_KIT_REMINDER : null;
    return { saved_at: savedAt, reminder: savedAt === null ? reminder : null };
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
