import { useState } from 'react';
import { Button } from '../../../ui/Button.tsx';
import { formatBytes, plural } from '../../../ui/format.ts';
import { Notice, Spinner } from '../../../ui/Notice.tsx';
import { useSnapshots, type Snapshot } from './queries.ts';
import { SnapshotBrowser } from './SnapshotBrowser.tsx';

const whenFormat = new Intl.DateTimeFormat(undefined, {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

/** The snapshots kept on a destination, newest first: each is the whole server as it was then. */
export function SnapshotList({ destinationId, name, open }: { destinationId: string; name: string; open: boolean }) {
  const snapshots = useSnapshots(destinationId, open);
  const [browsing, setBrowsing] = useState<Snapshot | null>(null);
  if (snapshots.isPending) return <Spinner label="Loading snapshots" />;
  if (snapshots.isError) return <Notice tone="error">{snapshots.error.message}</Notice>;
  if (snapshots.data.length === 0) return <p className="muted">No snapshots here yet.</p>;
  return (
    <>
      <ul className="snapshot-list" aria-label={`Snapshots on ${name}`}>
        {snapshots.data.map((snapshot) => (
          <li key={snapshot.id}>
            <span>{whenFormat.format(new Date(snapshot.at))}</span>
            <span className="muted">
              {plural(snapshot.files, 'file')}, {formatBytes(snapshot.bytes)}
            </span>
            <Button
              variant="quiet"
              onClick={() => setBrowsing(snapshot)}
              aria-label={`Browse files of ${whenFormat.format(new Date(snapshot.at))}`}
            >
              Browse
            </Button>
          </li>
        ))}
      </ul>
      {browsing && <SnapshotBrowser destinationId={destinationId} snapshot={browsing} onClose={() => setBrowsing(null)} />}
    </>
  );
}
