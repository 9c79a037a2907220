import type { Unsent } from '../upload/index.ts';

/** The upload queue's name for a phone backup's files (see Unsent.batch). */
export const BACKUP_BATCH = 'phone-backup';

/**
 * How many photos a backup that stopped (the tab closed, the page reloaded, the phone slept
 * for good) still had to send, from what an earlier page left behind. A phone's picker keeps
 * no handle on the files, so they cannot be sent without the person; running the backup again
 * reads nothing (the hash cache) and sends only these. Refusals are not "to send": the server
 * will not take them, and they are reported on their own.
 */
export function stillToSend(leftBehind: readonly Unsent[]): number {
  return leftBehind.filter(isStillToSend).length;
}

export function isStillToSend(entry: Unsent): boolean {
  return entry.batch === BACKUP_BATCH && entry.refused === undefined;
}

/** "Your last backup stopped with 12 photos still to send". */
export function stoppedLine(count: number): string {
  return `Your last backup stopped with ${count.toLocaleString()} ${count === 1 ? 'photo' : 'photos'} still to send`;
}
