import type { BackupPlan } from './check.ts';

/** The plain-words answer of a run: "1,842 already here, 56 to send". */
export function summaryOf(plan: BackupPlan): string {
  const send = plan.toSend.length;
  const here = `${plan.here.toLocaleString()} already here`;
  if (send === 0) return plan.here > 0 ? `${here}, nothing new to send` : 'Nothing new to send';
  return `${here}, ${send.toLocaleString()} to send`;
}

export function deletedLine(plan: BackupPlan, sent: boolean): string | null {
  const count = plan.deleted.length;
  if (count === 0) return null;
  const them = count === 1 ? 'photo you deleted before' : 'photos you deleted before';
  const verb = count === 1 ? 'is' : 'are';
  return `${count.toLocaleString()} ${them} ${verb} ${sent ? 'sent too' : 'skipped'}`;
}
