/** A link's expiry in the words of the form: a few plain choices, or a day on the calendar. */
export type ExpiryChoice = 'keep' | 'never' | 'day' | 'week' | 'month' | 'date';

const DAY = 86_400_000;

/** When a choice ends the link; undefined leaves it as it is, null makes it last. */
export function expiryOf(choice: ExpiryChoice, date: string, now = Date.now()): number | null | undefined {
  switch (choice) {
    case 'keep':
      return undefined;
    case 'never':
      return null;
    case 'day':
      return now + DAY;
    case 'week':
      return now + 7 * DAY;
    case 'month': {
      const at = new Date(now);
      at.setMonth(at.getMonth() + 1);
      return at.getTime();
    }
    case 'date': {
      // The whole chosen day counts: the link ends as it turns midnight at its end, here.
      const [year, month, day] = date.split('-').map(Number);
      if (!year || !month || !day) return undefined;
      return new Date(year, month - 1, day + 1).getTime();
    }
  }
}

/** yyyy-mm-dd of a local day, as <input type=date> speaks. */
export function dayInput(ms: number): string {
  const at = new Date(ms);
  return `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}`;
}

// Made on first use: making a formatter loads the locale's data, which costs a phone's main thread
// tens of milliseconds; a page that never shows such a date should not pay for it while it starts.
let untilFormatMade: Intl.DateTimeFormat | null = null;
const untilFormat = () =>
  (untilFormatMade ??= new Intl.DateTimeFormat(undefined, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  }));

export function formatUntil(ms: number): string {
  return untilFormat().format(new Date(ms));
}
