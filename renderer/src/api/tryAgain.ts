/** When a person may try again after too many tries (429 with Retry-After), in words they read at a glance. */
// Made on first use: making a formatter loads the locale's data, which costs a phone's main thread
// tens of milliseconds; a page that never shows such a date should not pay for it while it starts.
let clockMade: Intl.DateTimeFormat | null = null;
const clock = () => (clockMade ??= new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' }));

/** "40 seconds", "12 minutes", "2 hours": rounded up, so the right answer never comes early. */
export function waitWords(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 60) return `${s} second${s === 1 ? '' : 's'}`;
  const minutes = Math.ceil(s / 60);
  if (minutes < 90) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.ceil(minutes / 60);
  return `${hours} hours`;
}

/** "in 12 minutes (at 14:32)": the clock time stays true while the page sits open. */
export function whenAgain(until: number, now: number): string {
  return `in ${waitWords((until - now) / 1000)} (at ${clock().format(new Date(until))})`;
}

/**
 * The sentence for 429 `rate_limited`: how long, and that the right password (or code) will
 * then work; a person locked out for a while should not think the account is gone.
 */
export function tooManyTries(retryAfterSeconds: number | undefined, secret: 'password' | 'code' = 'password', now = Date.now()): string {
  if (!retryAfterSeconds) return `Too many tries. Wait a few minutes, then try again: the right ${secret} will work then.`;
  return `Too many tries. Try again ${whenAgain(now + retryAfterSeconds * 1000, now)}: the right ${secret} will work then.`;
}
