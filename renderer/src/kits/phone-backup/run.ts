import { useSyncExternalStore } from 'react';
import { api } from '../../api/client.ts';
import { session } from '../../api/session.ts';
import { uploadQueue } from '../upload/index.ts';
import { planBackup, type BackupPlan } from './check.ts';
import { BACKUP_BATCH } from './cut.ts';
import { thisDeviceName } from './device-name.ts';
import { deviceBackupFolder, namedFolder, type BackupFolder } from './folder.ts';
import { openHashCache } from './hash-cache.ts';
import { hashFiles, workerHashers } from './hashing.ts';

export type BackupRun =
  | { phase: 'idle' }
  | { phase: 'looking'; done: number; total: number }
  /** Only comparing with what the server has (nothing is sent yet): "Checking…", never "Backing up now". */
  | { phase: 'checking'; total: number }
  | {
      phase: 'decided';
      plan: BackupPlan;
      /** Where this run sends (null when it has nothing to send). */
      folder: BackupFolder | null;
      deletedSent: boolean;
      /** The upload queue's items from before this run: the run's own are the others sent into its folder. */
      earlier: ReadonlySet<string>;
    }
  | { phase: 'failed'; message: string };

const DONE_KEY = 'hearth.phone-backup.done';

/**
 * One backup of this device at a time: the chosen files are hashed (or read from the cache),
 * the server says which it has, and only the new ones go to the upload queue, into this
 * device's folder (folder.ts). The run outlives the Photos page, so it lives here.
 */
class PhoneBackup {
  private run: BackupRun = { phase: 'idle' };
  private readonly listeners = new Set<() => void>();
  private readonly cache = openHashCache();

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  state = (): BackupRun => this.run;

  /** Whether this browser has backed up before (the phone's card is offered until it has). */
  hasRun(): boolean {
    return localStorage.getItem(DONE_KEY) !== null;
  }

  /** `folderName`: a folder chosen on a computer, backed up into a folder of its own name rather than this device's. */
  async start(files: File[], { folderName }: { folderName?: string | undefined } = {}): Promise<void> {
    if (isBusy(this.run) || files.length === 0) return;
    this.set({ phase: 'looking', done: 0, total: files.length });
    const hashers = workerHashers();
    try {
      const signedIn = session.current();
      if (signedIn.kind !== 'signed-in') throw new Error('sign in again to back up');
      const device = thisDeviceName();
      const hashes = await hashFiles(files, {
        cache: this.cache,
        hashOne: hashers.hashOne,
        parallel: hashers.parallel,
        onProgress: ({ done, total }) => this.set({ phase: 'looking', done, total }),
      });
      this.set({ phase: 'checking', total: files.length });
      const plan = await planBackup(files, hashes);
      const name = await device;
      const where = () => (folderName ? namedFolder(folderName) : deviceBackupFolder(signedIn.user.id, name));
      const folder = plan.toSend.length + plan.deleted.length > 0 ? await where() : null;
      const earlier = new Set(uploadQueue.state().items.map((item) => item.key));
      // What an earlier, cut run left to send and is here now (or was not chosen this time) stops being "still to send".
      uploadQueue.keepOnlyOfBatch(BACKUP_BATCH, plan.toSend);
      this.set({ phase: 'decided', plan, folder, deletedSent: false, earlier });
      if (folder && plan.toSend.length > 0) void uploadQueue.add(plan.toSend, folder.id, { batch: BACKUP_BATCH });
      localStorage.setItem(DONE_KEY, String(Date.now()));
      // The server tells this person if this phone then goes a week without a backup.
      void api.POST('/me/phone-backups').catch(() => undefined);
    } catch (caught) {
      this.set({ phase: 'failed', message: caught instanceof Error ? caught.message : String(caught) });
    } finally {
      hashers.close();
    }
  }

  /** "Send deleted ones too": the photos deleted in Hearth before go as well, this once. */
  sendDeleted(): void {
    const run = this.run;
    if (run.phase !== 'decided' || run.deletedSent || !run.folder || run.plan.deleted.length === 0) return;
    this.set({ ...run, deletedSent: true });
    void uploadQueue.add(run.plan.deleted, run.folder.id, { batch: BACKUP_BATCH });
  }

  dismiss(): void {
    if (!isBusy(this.run)) this.set({ phase: 'idle' });
  }

  private set(run: BackupRun): void {
    this.run = run;
    for (const listener of this.listeners) listener();
  }
}

/** Reading the chosen files or asking the server about them: a second run waits, the buttons too. */
export function isBusy(run: BackupRun): boolean {
  return run.phase === 'looking' || run.phase === 'checking';
}

export const phoneBackup = new PhoneBackup();

export function usePhoneBackup(): BackupRun {
  return useSyncExternalStore(phoneBackup.subscribe, phoneBackup.state);
}
