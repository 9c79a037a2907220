import { session } from '../../api/session.ts';

/** What kind of device this browser runs on, in a word a family uses. */
export function deviceKind(userAgent: string, phoneSized: boolean): 'phone' | 'tablet' | 'computer' {
  if (/iPad/i.test(userAgent) || (/Android/i.test(userAgent) && !/Mobile/i.test(userAgent))) return 'tablet';
  if (/iPhone|Android/i.test(userAgent)) return 'phone';
  return phoneSized ? 'phone' : 'computer';
}

/**
 * The name a backup folder takes before the person chooses another: theirs and the device's
 * kind ("Mum’s phone"), not the browser's ("Chrome on Pixel 7"), which nobody recognises as
 * their phone. Renamed in My files or chosen in Account, the folder keeps the person's choice
 * (it is remembered by id).
 */
export function personalDeviceName(personName: string, userAgent: string, phoneSized: boolean): string {
  const first = personName.trim().split(/\s+/)[0] ?? '';
  const kind = deviceKind(userAgent, phoneSized);
  return folderSafe(first ? `${first}’s ${kind}` : `This ${kind}`);
}

/** Folder names cannot hold a slash; names are chosen by people and might. */
export function folderSafe(name: string): string {
  const clean = name.replace(/[/\\]/g, '-').trim();
  return clean.length > 0 ? clean : 'This device';
}

const nameKey = (userId: string) => `hearth.backup-device-name.${userId}`;

/** The name the person gave this device for its backup folder (Account), kept in this browser. */
export function chooseDeviceName(userId: string, name: string): void {
  localStorage.setItem(nameKey(userId), folderSafe(name));
}

/** The name of this device's backup folder for the person signed in: the one they chose, else "Mum’s phone". */
export async function thisDeviceName(): Promise<string> {
  const state = session.current();
  if (state.kind !== 'signed-in') return personalDeviceName('', navigator.userAgent, window.matchMedia('(max-width: 640px)').matches);
  const chosen = localStorage.getItem(nameKey(state.user.id));
  if (chosen) return chosen;
  const person = state.user.display_name ?? state.user.username;
  return personalDeviceName(person, navigator.userAgent, window.matchMedia('(max-width: 640px)').matches);
}
