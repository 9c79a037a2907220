import { formatBytes, formatCount, plural } from '../../../ui/format.ts';
import { ago } from '../../../ui/timeWords.ts';
import type { BackupRun, Destination } from './queries.ts';

const DAY = 86_400_000;
/** No success for this long: the destination is shown as needing attention. */
export const STALE_AFTER_MS = 3 * DAY;

export type Health = 'running' | 'checking' | 'ok' | 'failing' | 'never' | 'stale';

export function healthOf(destination: Destination, running: BackupRun | null, now = Date.now()): Health {
  // A check reads the backup and changes nothing: never "Backing up now".
  if (running?.destination_id === destination.id && running.kind === 'verify') return 'checking';
  if (running?.destination_id === destination.id && running.kind !== 'restore') return 'running';
  if (destination.last_run?.state === 'failed') return 'failing';
  if (destination.last_success_at === null) return 'never';
  return now - destination.last_success_at > STALE_AFTER_MS ? 'stale' : 'ok';
}

export const HEALTH_WORDS: Record<Health, string> = {
  running: 'Backing up now',
  checking: 'Checking…',
  ok: 'Backed up',
  failing: 'Last backup failed',
  never: 'Not backed up yet',
  stale: 'No recent backup',
};

/** "Last good backup 3 days ago", or that there never was one. */
export function lastSuccessWords(destination: Destination, now = Date.now()): string {
  return destination.last_success_at === null
    ? 'No backup has succeeded here yet.'
    : `Last good backup ${ago(destination.last_success_at, now)}.`;
}

// Made on first use: making a formatter loads the locale's data, which costs a phone's main thread
// tens of milliseconds; a page that never shows such a date should not pay for it while it starts.
let timeFormatMade: Intl.DateTimeFormat | null = null;
const timeFormat = () => (timeFormatMade ??= new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' }));

/** "Every night at 3:00 AM"; after a failure, when it tries again first. */
export function nextRunWords(destination: Destination): string {
  if (destination.schedule === null || destination.next_run_at === null) return 'Only when you press "Back up now"';
  const [hour, minute] = destination.schedule.daily_at.split(':').map(Number) as [number, number];
  const nightly = new Date(2000, 0, 1, hour, minute);
  const next = new Date(destination.next_run_at);
  const everyNight = `every night at ${timeFormat().format(nightly)}`;
  if (next.getHours() === hour && next.getMinutes() === minute) return `${everyNight[0]!.toUpperCase()}${everyNight.slice(1)}`;
  return `Tries again at ${timeFormat().format(next)}, then ${everyNight}`;
}

export function retentionWords(retention: Destination['retention']): string {
  return `${plural(retention.last, 'latest', 'latest')}, ${plural(retention.daily, 'daily', 'daily')}, ${plural(retention.weekly, 'weekly', 'weekly')}, ${plural(retention.monthly, 'monthly', 'monthly')} copies`;
}

/** Whether whoever holds the disk can read the family's files: said on every card, in those words. */
export function privacyWords(destination: Pick<Destination, 'encrypted'>): string {
  return destination.encrypted ? 'Encrypted' : 'Not encrypted: anyone with this disk can read everything';
}

/**
 * A run under way, as a parent reads it: "1.2 GB of 3.4 GB · 340 of 900 files · about 4 minutes
 * left". The bytes are those to copy (what the destination holds already is not copied again, and
 * goes by quickly), the files all of the snapshot's. Before the server has counted: what it is doing.
 */
export function progressWords(run: BackupRun): string {
  if (run.kind === 'restore') return `Restoring: ${plural(run.files, 'file')} so far…`;
  const left = timeLeftWords(run.seconds_left);
  if (run.kind === 'verify') {
    if (run.files_total === null || run.bytes_total === null)
      return `Checked ${plural(run.files, 'file')} (${formatBytes(run.bytes)}) so far…`;
    return [`Checked ${formatCount(run.files)} of ${plural(run.files_total, 'file')}`, ofBytes(run.bytes, run.bytes_total), left]
      .filter(Boolean)
      .join(' · ');
  }
  if (run.files_total === null || run.bytes_to_copy === null) return 'Looking at what is new since the last backup…';
  return [ofBytes(run.bytes_copied, run.bytes_to_copy), `${formatCount(run.files)} of ${plural(run.files_total, 'file')}`, left]
    .filter(Boolean)
    .join(' · ');
}

/** "1.2 GB of 3.4 GB": each in its own unit, as a person says it ("300 MB of 2.1 GB"). */
function ofBytes(done: number, total: number): string {
  return `${formatBytes(done)} of ${formatBytes(total)}`;
}

/** "about 4 minutes left"; '' while the server does not know yet (the first seconds). */
export function timeLeftWords(seconds: number | null): string {
  if (seconds === null) return '';
  if (seconds < 60) return 'less than a minute left';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return minutes === 1 ? 'about a minute left' : `about ${minutes} minutes left`;
  const hours = Math.round(seconds / 3600);
  if (hours < 2) return `about an hour${minutes >= 75 ? ` and ${minutes - 60} minutes` : ''} left`;
  return `about ${hours} hours left`;
}

/** How far a backup has copied, 0 to 1; null while it has not counted yet. */
export function progressShare(run: BackupRun): number | null {
  const [done, total] = run.kind === 'verify' ? [run.bytes, run.bytes_total] : [run.bytes_copied, run.bytes_to_copy];
  if (run.kind === 'restore' || total === null) return null;
  return total === 0 ? 1 : Math.min(1, done / total);
}

/** The last check, in a sentence. */
export function verifyWords(run: BackupRun, now = Date.now()): string {
  if (run.state === 'running') return progressWords(run);
  if (run.state === 'succeeded')
    return `Checked ${ago(run.finished_at ?? run.started_at, now)}: all ${plural(run.files, 'file')} are whole.`;
  return `Check ${ago(run.finished_at ?? run.started_at, now)} found a problem: ${run.error ?? 'it did not finish.'}`;
}
