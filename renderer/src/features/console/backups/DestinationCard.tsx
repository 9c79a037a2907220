import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, data } from '../../../api/client.ts';
import { Button } from '../../../ui/Button.tsx';
import { ConfirmDialog } from '../../../ui/Dialog.tsx';
import { Notice, ProgressBar } from '../../../ui/Notice.tsx';
import { formatBytes } from '../../../ui/format.ts';
import { consoleKeys } from '../keys.ts';
import { Icon } from '../../../ui/Icon.tsx';
import {
  HEALTH_WORDS,
  healthOf,
  lastSuccessWords,
  nextRunWords,
  privacyWords,
  progressShare,
  progressWords,
  retentionWords,
  verifyWords,
} from './backupWords.ts';
import { type BackupRun, type Destination } from './queries.ts';
import { ScheduleDialog } from './ScheduleDialog.tsx';
import { SnapshotList } from './SnapshotList.tsx';

const HEALTH_TAG = {
  running: 'tag',
  checking: 'tag',
  ok: 'tag tag-ok',
  failing: 'tag tag-danger',
  never: 'tag tag-quiet',
  stale: 'tag tag-warn',
} as const;

/** One destination: whether its backups work, in words, and "Back up now" / "Check backup". */
export function DestinationCard({ destination, running }: { destination: Destination; running: BackupRun | null }) {
  const queryClient = useQueryClient();
  const [confirmRemove, setConfirmRemove] = useState(false);
  const [snapshotsOpen, setSnapshotsOpen] = useState(false);
  const [editing, setEditing] = useState(false);
  const params = { params: { path: { id: destination.id } } };
  const act = useMutation({
    mutationFn: async (action: 'run' | 'verify' | 'remove') => {
      if (action === 'run') await data(api.POST('/admin/backup/destinations/{id}/run', params));
      else if (action === 'verify') await data(api.POST('/admin/backup/destinations/{id}/verify', params));
      else await data(api.DELETE('/admin/backup/destinations/{id}', params));
    },
    onSuccess: () => setConfirmRemove(false),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: consoleKeys.backups }),
  });
  const health = healthOf(destination, running);
  const mine = running?.destination_id === destination.id ? running : null;
  const last = destination.last_run;
  const titleId = `backup-${destination.id}`;
  return (
    <li className="card console-card backup-card" aria-labelledby={titleId}>
      <div className="account-head">
        <h3 id={titleId}>{destination.name}</h3>
        <span className={HEALTH_TAG[health]}>{HEALTH_WORDS[health]}</span>
      </div>
      <p className="muted backup-path">
        {destination.s3 ? (
          <span>
            Bucket <span className="mono">{[destination.s3.bucket, destination.s3.prefix].filter(Boolean).join('/')}</span> at{' '}
            <span className="mono">{hostOf(destination.s3.endpoint)}</span>
          </span>
        ) : (
          <span className="mono">{destination.path}</span>
        )}
      </p>
      <p className={destination.encrypted ? 'backup-privacy' : 'backup-privacy backup-plain'}>
        <Icon name={destination.encrypted ? 'lock' : 'info'} />
        <span>{privacyWords(destination)}</span>
      </p>
      {mine && <RunProgress run={mine} />}
      {!mine && last?.state === 'failed' && (
        <Notice tone="error">
          {last.error ?? 'The last backup did not finish.'} {lastSuccessWords(destination)}
        </Notice>
      )}
      {!mine && last?.state !== 'failed' && <p>{lastSuccessWords(destination)}</p>}
      <BackupFacts destination={destination} />
      {destination.last_verify && destination.last_verify.id !== mine?.id && <LastCheck verify={destination.last_verify} />}
      {act.isError && !confirmRemove && <Notice tone="error">{act.error.message}</Notice>}
      <div className="row">
        <Button
          variant="primary"
          onClick={() => act.mutate('run')}
          disabled={running !== null || act.isPending}
          aria-label={`Back up now to ${destination.name}`}
        >
          Back up now
        </Button>
        <Button
          onClick={() => act.mutate('verify')}
          disabled={running !== null || act.isPending || destination.last_success_at === null}
          aria-label={`Check backup on ${destination.name}`}
        >
          Check backup
        </Button>
        <Button variant="quiet" onClick={() => setEditing(true)} aria-label={`When to back up to ${destination.name}`}>
          Change schedule
        </Button>
        <Button
          variant="quiet"
          onClick={() => setConfirmRemove(true)}
          disabled={mine !== null}
          aria-label={`Stop using ${destination.name}`}
        >
          Stop using
        </Button>
      </div>
      <details className="drive-details" onToggle={(event) => setSnapshotsOpen((event.target as HTMLDetailsElement).open)}>
        <summary>Snapshots</summary>
        {snapshotsOpen && (
          <SnapshotList destinationId={destination.id} name={destination.name} kind={destination.kind} open={snapshotsOpen} />
        )}
      </details>
      {editing && <ScheduleDialog destination={destination} onClose={() => setEditing(false)} />}
      {confirmRemove && (
        <ConfirmDialog
          title={`Stop backing up to ${destination.name}?`}
          message={<p>Hearth stops backing up to this folder. The backups already in it stay there.</p>}
          confirm="Stop using"
          busy={act.isPending}
          onConfirm={() => act.mutate('remove')}
          onClose={() => setConfirmRemove(false)}
        />
      )}
    </li>
  );
}

/** A run under way: how far, in words and as a bar once the server has counted what there is to do. */
function RunProgress({ run }: { run: BackupRun }) {
  const share = progressShare(run);
  return (
    <div className="backup-progress">
      <p role="status">{progressWords(run)}</p>
      {share !== null && <ProgressBar value={share} label={run.kind === 'verify' ? 'Checked so far' : 'Copied so far'} />}
    </div>
  );
}

/** Its size, when it runs next, what it keeps. */
function BackupFacts({ destination }: { destination: Destination }) {
  return (
    <dl className="facts facts-inline">
      <div>
        <dt>Size</dt>
        {/* Before its first backup a destination holds nothing yet: "0 bytes" beside a run under way reads as a failure. */}
        <dd>{destination.last_success_at === null ? 'After the first backup' : formatBytes(destination.stored_bytes)}</dd>
      </div>
      <div>
        <dt>Next backup</dt>
        <dd>{nextRunWords(destination)}</dd>
      </div>
      <div className="backup-keeps">
        <dt>Keeps</dt>
        <dd>{retentionWords(destination.retention)}</dd>
      </div>
    </dl>
  );
}

/** The last check of its backups: what it found damaged, if anything. */
function LastCheck({ verify }: { verify: NonNullable<Destination['last_verify']> }) {
  return (
    <div className="backup-check">
      {verify.state === 'failed' ? (
        <Notice tone="error">
          {verifyWords(verify)}
          {verify.problems.length > 0 && (
            <ul className="backup-problems" aria-label="Damaged files">
              {verify.problems.slice(0, 5).map((problem) => (
                <li key={problem.path}>
                  <span className="mono">{problem.path}</span>: {problem.reason}
                </li>
              ))}
            </ul>
          )}
        </Notice>
      ) : (
        <p>{verifyWords(verify)}</p>
      )}
    </div>
  );
}

/** The service's host name, which the owner recognises ("s3.eu-central-003.backblazeb2.com"). */
function hostOf(endpoint: string): string {
  try {
    return new URL(endpoint).host;
  } catch {
    return endpoint;
  }
}
