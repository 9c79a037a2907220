/** The console's plain words for what the server names in codes. */

export function deviceLabel(device: { device_name: string | null; platform: string | null }): string {
  return device.device_name ?? (device.platform ? platformName(device.platform) : 'An unnamed device');
}

const PLATFORMS: Record<string, string> = {
  android: 'Android',
  ios: 'iPhone or iPad',
  macos: 'Mac',
  windows: 'Windows',
  linux: 'Linux',
  desktop: 'This PC',
  web: 'Web browser',
};

/** What the family calls an account's person: the display name, else the username. */
export function personName(account: { username: string; display_name?: string | null }): string {
  return account.display_name || account.username;
}

export function platformName(platform: string): string {
  return PLATFORMS[platform.toLowerCase()] ?? platform;
}

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });
const dayFormat = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit' });

/** "at 10:42" today, else "on 3 Mar, 10:42". */
export function timeOfDay(ms: number): string {
  const date = new Date(ms);
  return date.toDateString() === new Date().toDateString() ? `today at ${timeFormat.format(date)}` : dayFormat.format(date);
}

export function roleName(role: string): string {
  return role === 'admin' ? 'Owner' : 'Family member';
}

export const LIBRARY_KINDS: Record<string, string> = {
  internal: 'Inside this PC',
  external: 'A drive plugged into this PC',
  network: 'A drive on the network',
  pooled: 'Several drives together',
};

export const LIBRARY_STATUS: Record<string, string> = {
  online: 'Connected',
  offline: 'Not connected',
  ejected: 'Ejected: safe to unplug',
};

/** Uptime the way people say it: "3 days, 4 hours", "12 minutes". */
export function uptimeWords(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const part = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
  if (days > 0) return `${part(days, 'day')}, ${part(hours, 'hour')}`;
  if (hours > 0) return `${part(hours, 'hour')}, ${part(minutes, 'minute')}`;
  if (minutes > 0) return part(minutes, 'minute');
  return 'less than a minute';
}

/** A drive's size as its box says it: makers count 1 GB as 1,000,000,000 bytes. */
export function driveSize(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value < 10 && unit > 0 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}
