/** Sizes and times the way people say them. */
const UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB'];

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return bytes === 1 ? '1 byte' : `${bytes} bytes`;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${UNITS[unit]}`;
}

// Made on first use: making a formatter loads the locale's data, which costs a phone's main thread
// tens of milliseconds; a page that never shows such a date should not pay for it while it starts.
let dateMade: Intl.DateTimeFormat | null = null;
let timeMade: Intl.DateTimeFormat | null = null;
const dateFormat = () => (dateMade ??= new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric' }));
const timeFormat = () => (timeMade ??= new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' }));

export function formatDate(ms: number): string {
  const date = new Date(ms);
  const today = new Date();
  if (date.toDateString() === today.toDateString()) return `Today, ${timeFormat().format(date)}`;
  return dateFormat().format(date);
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '';
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  return `${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min`;
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

let grouping: Intl.NumberFormat | null = null;

/**
 * "12", "1,234": a count as the person's locale writes it. Under a thousand there is nothing to
 * group, and the locale's number formatter is not made: its first use loads the locale's data,
 * about 30 ms of a phone's main thread in Photos' first render (measured with Lighthouse's 4x CPU).
 */
export function formatCount(count: number): string {
  if (Number.isInteger(count) && Math.abs(count) < 1000) return String(count);
  grouping ??= new Intl.NumberFormat();
  return grouping.format(count);
}
