/**
 * The next time after `now` that the wall clock reads `hour:minute`. Across a change to or
 * from summer time that is 23 or 25 hours later; a time the change skips (02:30 on the night
 * clocks go forward) comes as the same time after the gap (03:30).
 */
export function nextDailyAt(now: number, { hour, minute }: { hour: number; minute: number }): number {
  const at = new Date(now);
  at.setHours(hour, minute, 0, 0);
  if (at.getTime() <= now) {
    at.setDate(at.getDate() + 1);
    at.setHours(hour, minute, 0, 0);
  }
  return at.getTime();
}
