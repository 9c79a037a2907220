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
