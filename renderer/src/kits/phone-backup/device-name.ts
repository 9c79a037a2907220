import { api, data } from '../../api/client.ts';

/** A name for this device from the browser alone, when the server has none for its session. */
export function browserDeviceName(userAgent: string, phoneSized: boolean): string {
  if (/iPhone/i.test(userAgent)) return 'iPhone';
  if (/iPad/i.test(userAgent)) return 'iPad';
  if (/Android/i.test(userAgent)) return /Mobile/i.test(userAgent) ? 'Android phone' : 'Android tablet';
  return phoneSized ? 'This phone' : 'This computer';
}

/** Folder names cannot hold a slash; device names are chosen by people and might. */
export function folderSafe(name: string): string {
  const clean = name.replace(/[/\\]/g, '-').trim();
  return clean.length > 0 ? clean : 'This device';
}

/** The name this device has in Hearth's lists of devices (the session's own), else the browser's. */
export async function thisDeviceName(): Promise<string> {
  const fallback = browserDeviceName(navigator.userAgent, window.matchMedia('(max-width: 640px)').matches);
  try {
    const sessions = await data(api.GET('/sessions'));
    return folderSafe(sessions.items.find((s) => s.current)?.device_name ?? fallback);
  } catch {
    return fallback;
  }
}
