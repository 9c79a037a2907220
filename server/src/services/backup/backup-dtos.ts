import type { BackupDestination, BackupRun } from '../../contract/backup-responses.ts';
import type { BackupDestinationRow, BackupRunRow } from '../../store/database/backup.repo.ts';
import type { ServiceDeps } from '../common/context.ts';
import type { RunCounts } from './backup-run.ts';
import { pad, retentionOf } from './destination-rules.ts';

/** A run as the service holds it: a restore of one item is never stored in backup_runs (kept in memory, see restoreRuns). */
export type LiveRun = Omit<BackupRunRow, 'kind'> & { kind: BackupRun['kind']; restored?: BackupRun['restored'] };

/** A run as the API answers it; `live`: the counts of the run under way, newer than its row. */
export function runDto(row: LiveRun, live: RunCounts | null): BackupRun {
  return {
    id: row.id,
    destination_id: row.destination_id,
    kind: row.kind,
    state: row.state,
    started_at: row.started_at,
    finished_at: row.finished_at,
    files: live?.files ?? row.files,
    bytes: live?.bytes ?? row.bytes,
    bytes_copied: live?.bytes_copied ?? row.bytes_copied,
    ...totalsOf(row, live),
    problems: live ? live.problems.slice(0, 1000) : (JSON.parse(row.problems) as BackupRun['problems']),
    ...(row.error !== null && { error: row.error }),
    ...(row.error_code !== null && { error_code: row.error_code }),
    snapshot_id: row.snapshot_id,
    ...(row.restored && { restored: row.restored }),
  };
}

/**
 * What the run will have done, and the time it has left. A run that succeeded did all it set out
 * to (its counts are its totals); one that failed, or is not counted yet, does not know.
 */
function totalsOf(row: LiveRun, live: RunCounts | null): Pick<BackupRun, 'files_total' | 'bytes_total' | 'bytes_to_copy' | 'seconds_left'> {
  if (live) {
    const [done, total] = row.kind === 'verify' ? [live.bytes, live.bytes_total] : [live.bytes_copied, live.bytes_to_copy];
    return {
      files_total: live.files_total,
      bytes_total: live.bytes_total,
      bytes_to_copy: live.bytes_to_copy,
      seconds_left: live.timeLeft.secondsLeft(done, total),
    };
  }
  if (row.state === 'succeeded')
    return { files_total: row.files, bytes_total: row.bytes, bytes_to_copy: row.bytes_copied, seconds_left: null };
  return { files_total: null, bytes_total: null, bytes_to_copy: null, seconds_left: null };
}

/** A destination as the API answers it, with its last runs (`runOf`: the run under way when it is one of them). */
export function destinationDto(
  backup: ServiceDeps['store']['backup'],
  row: BackupDestinationRow,
  runOf: (run: LiveRun) => BackupRun,
): BackupDestination {
  const last = backup.lastRun(row.id);
  const verify = backup.lastVerify(row.id);
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    path: row.path,
    s3:
      row.kind === 's3'
        ? {
            endpoint: row.endpoint!,
            region: row.region!,
            bucket: row.bucket!,
            prefix: row.prefix ?? '',
            access_key_id: row.access_key_id!,
          }
        : null,
    encrypted: row.encrypted === 1,
    schedule: row.daily_at === null ? null : { daily_at: `${pad(Math.floor(row.daily_at / 60))}:${pad(row.daily_at % 60)}` },
    retention: retentionOf(row),
    last_run: last ? runOf(last) : null,
    last_success_at: backup.lastSuccess(row.id)?.finished_at ?? null,
    last_verify: verify ? runOf(verify) : null,
    next_run_at: row.next_run_at,
    stored_bytes: row.stored_bytes,
  };
}
