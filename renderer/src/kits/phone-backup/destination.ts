import { thisDeviceName } from './device-name.ts';
import { BACKUP_FOLDER, deviceBackupFolder, pathWords, rememberedFolder } from './folder.ts';

/** A folder said in words now, and found (or made) only once something is saved into it. */
export interface Destination {
  path: string;
  folderId(): Promise<string>;
}

/**
 * Where this device's photos go, as "Back up this phone" sends them: the folder it remembers,
 * else Phone backup/<device>. Looking makes nothing: a folder is made only when a photo is
 * saved into it, so a screen that is opened and left leaves no empty folder behind.
 */
export async function backupDestination(userId: string): Promise<Destination> {
  const remembered = await rememberedFolder(userId);
  if (remembered) {
    const id = remembered.at(-1)!.id;
    return { path: pathWords(remembered), folderId: async () => id };
  }
  const device = await thisDeviceName();
  return { path: `${BACKUP_FOLDER}/${device}`, folderId: async () => (await deviceBackupFolder(userId, device)).id };
}
