import { useState } from 'react';
import { Button } from '../../../ui/Button.tsx';
import { Notice, Spinner } from '../../../ui/Notice.tsx';
import { ConsoleLayout } from '../ConsoleLayout.tsx';
import { AddDestinationForm } from './AddDestinationForm.tsx';
import { DestinationCard } from './DestinationCard.tsx';
import { EmergencyKitDialog } from './EmergencyKitDialog.tsx';
import { useBackups } from './queries.ts';
import './backups.css';

/** Where the family's files are copied to, whether that works, and "Back up now". */
export function BackupsPage() {
  const backups = useBackups();
  const [adding, setAdding] = useState(false);
  const [kit, setKit] = useState<'asked' | 'just-encrypted' | null>(null);
  const destinations = backups.data?.destinations ?? [];
  return (
    <ConsoleLayout
      title="Backups"
      actions={
        <>
          <Button onClick={() => setKit('asked')}>Download emergency kit</Button>
          {!adding && (
            <Button variant="primary" onClick={() => setAdding(true)}>
              Add a backup folder
            </Button>
          )}
        </>
      }
    >
      <section className="console-section" aria-labelledby="backups-title">
        <h2 id="backups-title" className="visually-hidden">
          Backup folders
        </h2>
        {backups.isPending && <Spinner label="Loading backups" />}
        {backups.isError && <Notice tone="error">{backups.error.message}</Notice>}
        {backups.data?.kit.reminder && (
          <Notice tone="error">
            <span>{backups.data.kit.reminder}</span>{' '}
            <Button variant="primary" onClick={() => setKit('asked')}>
              Open the emergency kit
            </Button>
          </Notice>
        )}
        {adding && (
          <AddDestinationForm
            onDone={(added) => {
              setAdding(false);
              if (added?.encrypted) setKit('just-encrypted');
            }}
          />
        )}
        {backups.data && destinations.length === 0 && !adding && (
          <div className="card console-card backup-empty">
            <p>
              <strong>Nothing is backed up yet.</strong> Today the family's files are on this PC only: if its disk dies or it is stolen,
              they are gone.
            </p>
            <p className="muted">
              Plug in a USB disk, then add a folder on it. Hearth copies everything there every night, and only what is new after the first
              time.
            </p>
          </div>
        )}
        <ul className="card-list" aria-label="Backup folders">
          {destinations.map((destination) => (
            <DestinationCard key={destination.id} destination={destination} running={backups.data?.running ?? null} />
          ))}
        </ul>
      </section>
      {kit && <EmergencyKitDialog justEncrypted={kit === 'just-encrypted'} onClose={() => setKit(null)} />}
    </ConsoleLayout>
  );
}
