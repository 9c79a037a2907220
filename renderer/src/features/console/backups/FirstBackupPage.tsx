import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api, data } from '../../../api/client.ts';
import { Button } from '../../../ui/Button.tsx';
import { Notice, Spinner } from '../../../ui/Notice.tsx';
import { ConsoleLayout } from '../ConsoleLayout.tsx';
import { driveDescription, driveName } from '../storage/driveWords.ts';
import { useDrives, type Drive } from '../storage/queries.ts';
import { AddDestinationForm } from './AddDestinationForm.tsx';
import { HEALTH_WORDS, healthOf, nextRunWords, progressWords } from './backupWords.ts';
import { EmergencyKitDialog } from './EmergencyKitDialog.tsx';
import { useBackups, type Destination } from './queries.ts';
import './backups.css';

/** Where the first run goes on: connecting the family's phones. */
const WELCOME = '/console/welcome';

/**
 * First-run setup's last step, which the owner may skip: a copy of the family's files on another
 * drive. It lists the drives Hearth sees (open on this PC, not its own disk, not holding a
 * library), fills in the folder of the one picked, encrypts by default and offers the emergency
 * kit right after, and starts the first backup at once. "Later" goes on; the console's
 * "Your files have no backup yet" stays as the reminder.
 */
export function FirstBackupPage() {
  const navigate = useNavigate();
  const [picked, setPicked] = useState('');
  const [added, setAdded] = useState<Destination | null>(null);
  const [kitOpen, setKitOpen] = useState(false);
  const later = () => navigate(WELCOME);
  const firstRun = useMutation({
    mutationFn: (id: string) => data(api.POST('/admin/backup/destinations/{id}/run', { params: { path: { id } } })),
  });
  return (
    <div className="first-backup">
      <ConsoleLayout title="Keep a copy of your family's files">
        <p className="lead">
          Files are safe when there are three copies, on two different drives, one of them away from home: Hearth makes the second copy for
          you, every night, on a USB disk or another drive.
        </p>
        {added ? (
          <FirstBackupStarted
            destination={added}
            startError={firstRun.error?.message ?? null}
            onKit={() => setKitOpen(true)}
            onDone={later}
          />
        ) : (
          <>
            <DrivesToPick picked={picked} onPick={setPicked} />
            <AddDestinationForm
              key={picked}
              initialPath={picked}
              cancelLabel="Later"
              onDone={(destination) => {
                if (!destination) return later();
                setAdded(destination);
                firstRun.mutate(destination.id);
                if (destination.encrypted) setKitOpen(true);
              }}
            />
          </>
        )}
        {kitOpen && <EmergencyKitDialog justEncrypted onClose={() => setKitOpen(false)} />}
      </ConsoleLayout>
    </div>
  );
}

/** A drive can take the backup when it is open on this PC, is not the PC's own disk and holds no library. */
function backupCandidates(drives: Drive[]): Drive[] {
  return drives.filter((drive) => !drive.system && drive.library_id === null && drive.mountpoints.length > 0);
}

function DrivesToPick({ picked, onPick }: { picked: string; onPick: (folder: string) => void }) {
  const drives = useDrives();
  const candidates = drives.data ? backupCandidates(drives.data.items) : [];
  return (
    <section className="card console-card" aria-labelledby="first-backup-drives">
      <h2 id="first-backup-drives">Drives Hearth sees</h2>
      {drives.isPending && <Spinner label="Looking for drives" />}
      {drives.isError && <Notice tone="error">{drives.error.message}</Notice>}
      {drives.data && candidates.length === 0 && (
        <p className="muted">
          No other drive is plugged in right now. Plug in a USB disk and choose <strong>Look again</strong>, or type the folder below.
        </p>
      )}
      {candidates.length > 0 && (
        <ul className="plain-list first-backup-drives" aria-label="Drives for the backup">
          {candidates.map((drive) => {
            const folder = drive.mountpoints[0]!;
            const name = driveName(drive);
            return (
              <li key={drive.id}>
                <div>
                  <strong>{name}</strong>
                  <div className="muted">
                    {drive.label !== null && `${driveDescription(drive)} · `}
                    <span className="mono">{folder}</span>
                  </div>
                </div>
                <Button
                  variant={picked === folder ? 'primary' : 'default'}
                  aria-pressed={picked === folder}
                  aria-label={`Back up to ${name}`}
                  onClick={() => onPick(folder)}
                >
                  {picked === folder ? 'Chosen' : 'Use this drive'}
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      <Button variant="quiet" onClick={() => void drives.refetch()} disabled={drives.isFetching}>
        Look again
      </Button>
    </section>
  );
}

/** The folder is added and its first backup is running: what happens now, and on to the rest of the setup. */
function FirstBackupStarted({
  destination,
  startError,
  onKit,
  onDone,
}: {
  destination: Destination;
  startError: string | null;
  onKit: () => void;
  onDone: () => void;
}) {
  const backups = useBackups();
  const current = backups.data?.destinations.find((d) => d.id === destination.id) ?? destination;
  const running = backups.data?.running ?? null;
  const health = healthOf(current, running);
  const mine = running?.destination_id === current.id ? running : null;
  return (
    <section className="card console-card" aria-labelledby="first-backup-started">
      <h2 id="first-backup-started">Backing up to {current.name}</h2>
      <p role="status">
        <strong>{HEALTH_WORDS[health]}.</strong>{' '}
        {mine
          ? progressWords(mine)
          : health === 'ok'
            ? `The first copy is made. From now on, only what is new: ${nextRunWords(current).toLowerCase()}.`
            : health === 'failing'
              ? (current.last_run?.error ?? 'The first backup did not finish.')
              : 'The first copy takes a while; Hearth keeps serving the family meanwhile.'}
      </p>
      {startError && <Notice tone="error">{startError}</Notice>}
      {current.encrypted && (
        <p>
          This backup is encrypted. Without its emergency kit nobody can restore it.{' '}
          <Button variant="quiet" onClick={onKit}>
            Open the emergency kit
          </Button>
        </p>
      )}
      <p className="muted">You can change the time, what is kept, or add another drive on the Backups page.</p>
      <Button variant="primary" onClick={onDone}>
        Continue
      </Button>
    </section>
  );
}
