/** The Devices page's plain words for what the server names in codes. */

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

// Made on first use: making a formatter loads the locale's data, which costs a phone's main thread
// tens of milliseconds; a page that never shows such a date should not pay for it while it starts.
let timeFormatMade: Intl.DateTimeFormat | null = null;
const timeFormat = () => (timeFormatMade ??= new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' }));
let dayFormatMade: Intl.DateTimeFormat | null = null;
const dayFormat = () =>
  (dayFormatMade ??= new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit' }));

/** "at 10:42" today, else "on 3 Mar, 10:42". */
export function timeOfDay(ms: number): string {
  const date = new Date(ms);
  return date.toDateString() === new Date().toDateString() ? `today at ${timeFormat().format(date)}` : dayFormat().format(date);
}
