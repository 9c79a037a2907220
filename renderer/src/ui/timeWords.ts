/** When something last happened, as people say it: "just now", "5 minutes ago", "yesterday", "on 3 Mar". */
// Made on first use: making a formatter loads the locale's data, which costs a phone's main thread
// tens of milliseconds; a page that never shows such a date should not pay for it while it starts.
let relativeMade: Intl.RelativeTimeFormat | null = null;
let dayMade: Intl.DateTimeFormat | null = null;
const relative = () => (relativeMade ??= new Intl.RelativeTimeFormat('en', { numeric: 'auto' }));
const dayFormat = () => (dayMade ??= new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric' }));

export function ago(ms: number, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - ms) / 1000));
  if (seconds < 60) return 'just now';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return relative().format(-minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return relative().format(-hours, 'hour');
  const days = Math.round((startOfDay(now) - startOfDay(ms)) / 86_400_000);
  if (days < 7) return relative().format(-days, 'day');
  return `on ${dayFormat().format(new Date(ms))}`;
}

function startOfDay(ms: number): number {
  const date = new Date(ms);
  date.setHours(0, 0, 0, 0);
  return date.getTime();
}
