import type { BackupHealth } from '../../contract/backup-responses.ts';
import { requireAdmin, type Actor, type ServiceDeps } from '../common/context.ts';

/** A scheduled destination without a success for this long is overdue: the console and the tray warn. */
export const OVERDUE_AFTER_MS = 3 * 24 * 60 * 60_000;
const DAY_MS = 24 * 60 * 60_000;
const OK_WITHOUT_BACKUP = JSON.stringify({ state: 'ok', headline: null, reason: null, destination_id: null, last_success_at: null });

/**
 * Decides, in one place, whether the family's files are backed up, for the console's header and
 * the desktop's tray; tells the owners (`backup.health`) when the answer changes. A destination
 * run only by hand never makes the warning (the owner chose to run it when they like); one that
 * never succeeded counts from when it was added, so a new destination gets its 3 days too.
 */
export class BackupHealthService {
  /** What the owners were last told (or would read now, at start: a console or tray that opens asks). */
  private told: string;

  constructor(private readonly deps: ServiceDeps) {
    this.told = JSON.stringify(this.current());
    // A run that ends may end the warning (or start it): the tray learns at once, not a minute later.
    deps.bus.subscribe(({ message }) => {
      if (message.type === 'backup.progress' && (message.payload as { run: { state: string } }).run.state !== 'running') this.check();
      // The family's first file: the nudge to set up a backup comes at once. Later files change nothing.
      else if (message.type === 'node.created' && this.told === OK_WITHOUT_BACKUP) this.check();
    });
  }

  forOwner(actor: Actor): BackupHealth {
    requireAdmin(actor);
    return this.current();
  }

  /** For the process that hosts the server (the desktop's tray); no route reaches it without an owner. */
  current(): BackupHealth {
    const { backup, nodes } = this.deps.store;
    const now = this.deps.now();
    const destinations = backup.all();
    let lastSuccessAt: number | null = null;
    let overdue: { id: string; name: string; since: number } | null = null;
    for (const row of destinations) {
      const success = backup.lastSuccess(row.id)?.finished_at ?? null;
      if (success !== null && (lastSuccessAt === null || success > lastSuccessAt)) lastSuccessAt = success;
      if (row.daily_at === null) continue;
      const since = success ?? row.created_at;
      if (now - since >= OVERDUE_AFTER_MS && (overdue === null || since < overdue.since)) overdue = { id: row.id, name: row.name, since };
    }
    if (overdue !== null) {
      const days = Math.floor((now - overdue.since) / DAY_MS);
      const last = backup.lastRun(overdue.id);
      return {
        state: 'overdue',
        headline: destinations.length === 1 ? `No backup for ${days} days` : `No backup to “${overdue.name}” for ${days} days`,
        reason: last?.state === 'failed' ? last.error : null,
        destination_id: overdue.id,
        last_success_at: lastSuccessAt,
      };
    }
    if (destinations.length === 0 && nodes.hasAnyFile()) {
      return {
        state: 'no_backup_yet',
        headline: 'Your files have no backup yet',
        reason: null,
        destination_id: null,
        last_success_at: null,
      };
    }
    return { state: 'ok', headline: null, reason: null, destination_id: null, last_success_at: lastSuccessAt };
  }

  /** Looks again (the job does every minute, and a run's end does): owners hear of a change, only of a change. */
  check(): void {
    const health = this.current();
    const key = JSON.stringify(health);
    if (key === this.told) return;
    this.told = key;
    this.deps.bus.publish('backup.health', { health }, { users: this.deps.store.users.activeAdminIds() });
  }
}
