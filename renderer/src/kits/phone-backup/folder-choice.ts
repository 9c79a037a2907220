import { useSyncExternalStore } from 'react';

/*
 * Which folder this device's photos go into, remembered by the folder's id: renaming or moving
 * the folder in Files keeps it. Kept in this browser, per account, because the choice belongs
 * to the device (two phones of one account back up into two folders) and outlives its
 * sign-ins: signing out and in again, or a session that expired while the phone lay in a
 * drawer, still finds the same folder. A browser whose data was cleared has lost its sign-in
 * and its hash cache with it; its next backup goes to Phone backup/<device> by name again.
 */

const keyOf = (userId: string) => `hearth.phone-backup.folder.${userId}`;
const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

export function chosenFolderId(userId: string): string | null {
  try {
    return localStorage.getItem(keyOf(userId));
  } catch {
    return null;
  }
}

export function rememberFolder(userId: string, folderId: string): void {
  try {
    localStorage.setItem(keyOf(userId), folderId);
  } catch {
    // A browser that refuses storage (some private modes) finds the folder by name each time.
  }
  notify();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab of this browser chose a folder: this one shows it too.
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key.startsWith('hearth.phone-backup.folder.')) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The folder id this device remembers for the account, kept up to date across tabs. */
export function useChosenFolderId(userId: string): string | null {
  return useSyncExternalStore(subscribe, () => chosenFolderId(userId));
}
