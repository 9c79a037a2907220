import { useState, type FormEvent } from 'react';
import type { Answer } from '../../api/types.ts';
import { Button } from '../../ui/Button.tsx';
import { Notice } from '../../ui/Notice.tsx';
import { formatBytes, formatDate, plural } from '../../ui/format.ts';
import { AuthCard } from './AuthCard.tsx';

export type Snapshot = Answer<'/setup/restore/snapshots', 'post'>['items'][number];

/**
 * Which snapshot to restore, newest first. The one chosen at first is the newest the kit proves:
 * an unsigned one (from a Hearth before backups were signed) could have been put on the drive to
 * look newest, so it is marked, and restored only once the owner ticks that nobody else could
 * change the drive.
 */
export function ChooseSnapshot({
  snapshots,
  busy,
  error,
  onRestore,
  onBack,
}: {
  snapshots: Snapshot[];
  busy: boolean;
  error: string | null;
  onRestore: (choice: { snapshot_id: string; accept_unsigned?: boolean }) => void;
  onBack: () => void;
}) {
  const [chosen, setChosen] = useState((snapshots.find((s) => s.signed) ?? snapshots[0]!).id);
  const [trustUnsigned, setTrustUnsigned] = useState(false);
  const unsignedChosen = snapshots.find((s) => s.id === chosen)?.signed === false;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onRestore({ snapshot_id: chosen, ...(unsignedChosen && { accept_unsigned: trustUnsigned }) });
  };
  return (
    <AuthCard title="Choose a backup">
      <form onSubmit={submit}>
        <fieldset className="restore-choice">
          <legend>Restore the server as it was on</legend>
          {snapshots.map((snapshot) => (
            <label key={snapshot.id}>
              <input type="radio" name="snapshot" checked={chosen === snapshot.id} onChange={() => setChosen(snapshot.id)} />{' '}
              {formatDate(snapshot.at)}
              <span className="muted">
                {plural(snapshot.files, 'file')}, {formatBytes(snapshot.bytes)}
                {!snapshot.signed && ' · from an older Hearth'}
              </span>
            </label>
          ))}
        </fieldset>
        {unsignedChosen && (
          <Notice>
            This backup comes from an older version of Hearth, which could not protect its backups against changes: Hearth cannot prove that
            nobody has changed it since. Choose a newer one if you can.
            <label className="restore-trust">
              <input type="checkbox" checked={trustUnsigned} onChange={(e) => setTrustUnsigned(e.target.checked)} /> Only I could change
              this drive: restore it anyway
            </label>
          </Notice>
        )}
        {error && <Notice tone="error">{error}</Notice>}
        <Button type="submit" variant="primary" block disabled={busy || (unsignedChosen && !trustUnsigned)}>
          Restore this backup
        </Button>
        <Button variant="quiet" block onClick={onBack}>
          Back
        </Button>
      </form>
    </AuthCard>
  );
}
