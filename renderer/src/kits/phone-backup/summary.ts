import type { BackupPlan } from './check.ts';

/**
 * The plain-words answer of a run: "1,842 already here, 56 to send"; once every one of them is
 * sent, "1,842 already here, 56 sent" ("All 56 sent" on a first run), never "56 to send".
 */
export function summaryOf(plan: BackupPlan, allSent = false): string {
  const send = plan.toSend.length;
  const here = `${plan.here.toLocaleString()} already here`;
  if (allSent && send > 0) {
    if (plan.here > 0) return `${here}, ${send.toLocaleString()} sent`;
    return send === 1 ? 'Sent' : `All ${send.toLocaleString()} sent`;
  }
  // Not "nothing new to send": that would tell the family their photos are safe.
  if (send === 0 && plan.here === 0 && plan.deleted.length === 0 && plan.unreadable > 0) {
    return plan.unreadable === 1 ? 'This photo could not be read on this device' : 'None of these could be read on this device';
  }
  if (send === 0) return plan.here > 0 ? `${here}, nothing new to send` : 'Nothing new to send';
  // A first run has nothing here yet: "0 already here" would only puzzle.
  if (plan.here === 0) return `${send.toLocaleString()} to send`;
  return `${here}, ${send.toLocaleString()} to send`;
}

export function deletedLine(plan: BackupPlan, sent: boolean): string | null {
  const count = plan.deleted.length;
  if (count === 0) return null;
  const them = count === 1 ? 'photo you deleted before' : 'photos you deleted before';
  const verb = count === 1 ? 'is' : 'are';
  return `${count.toLocaleString()} ${them} ${verb} ${sent ? 'sent too' : 'skipped'}`;
}

/** How far the sending of a run has come: "2 of 6 sent", then "All 6 sent". */
export function sendingLine(items: { status: string }[]): string | null {
  const total = items.length;
  if (total === 0) return null;
  const sent = items.filter((item) => item.status === 'done').length;
  const failed = items.filter((item) => item.status === 'failed' || item.status === 'cancelled').length;
  if (sent === total) return total === 1 ? 'Sent' : `All ${total.toLocaleString()} sent`;
  const line = `${sent.toLocaleString()} of ${total.toLocaleString()} sent`;
  return failed > 0 ? `${line}, ${failed.toLocaleString()} not sent (see Uploads)` : line;
}
