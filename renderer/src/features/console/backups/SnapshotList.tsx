import { useState } from 'react';
import { Button } from '../../../ui/Button.tsx';
import { formatBytes, plural } from '../../../ui/format.ts';
import { Notice, Spinner } from '../../../ui/Notice.tsx';
import { useSnapshots, type Snapshot } from './queries.ts';
import { SnapshotBrowser } from './SnapshotBrowser.tsx';

const WHEN: Intl.DateTimeFormatOptions = {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
};
// Made on first use: making a formatter loads the locale's data, which costs a phone's main thread
// tens of milliseconds; a page that never shows such a date should not pay for it while it starts.
let whenFormatMade: Intl.DateTimeFormat | null = null;
const whenFormat = () => (whenFormatMade ??= new Intl.DateTimeFormat(undefined, WHEN));
let withSecondsMade: Intl.DateTimeFormat | null = null;
const withSeconds = () => (withSecondsMade ??= new Intl.DateTimeFormat(undefined, { ...WHEN, second: '2-digit' }));

/** When each snapshot was made, to the minute; to the second where two share a minute (two "Back up now" in a row). */
function whenWords(snapshots: readonly Snapshot[]): Map<string, string> {
  const minutes = snapshots.map((s) => whenFormat().format(new Date(s.at)));
  return new Map(
    snapshots.map((s, i) => [
      s.id,
      minutes.indexOf(minutes[i]!) !== minutes.lastIndexOf(minutes[i]!) ? withSeconds().format(new Date(s.at)) : minutes[i]!,
    ]),
  );
}

/** The snapshots kept on a destination, newest first: each is the whole server as it was then. */
export function SnapshotList({
  destinationId,
  name,
  kind,
  open,
}: {
  destinationId: string;
  name: string;
  kind: 'folder' | 's3';
  open: boolean;
}) {
  const snapshots = useSnapshots(destinationId, open);
  const [browsing, setBrowsing] = useState<Snapshot | null>(null);
  if (snapshots.isPending) return <Spinner label="Loading snapshots" />;
  if (snapshots.isError) return <Notice tone="error">{snapshots.error.message}</Notice>;
  if (!snapshots.data.reachable) {
    return (
      <p className="muted">
        {kind === 'folder'
          ? 'This drive is not plugged in (or its folder is not there). Plug it in to see its snapshots.'
          : 'Hearth cannot reach this backup right now, so its snapshots cannot be listed.'}
      </p>
    );
  }
  const items = snapshots.data.items;
  if (items.length === 0) return <p className="muted">No snapshots here yet.</p>;
  const when = whenWords(items);
  return (
    <>
      <ul className="snapshot-list" aria-label={`Snapshots on ${name}`}>
        {items.map((snapshot) => (
          <li key={snapshot.id}>
            <span>{when.get(snapshot.id)}</span>
            <span className="muted">
              {plural(snapshot.files, 'file')}, {formatBytes(snapshot.bytes)}
            </span>
            <Button variant="quiet" onClick={() => setBrowsing(snapshot)} aria-label={`Browse files of ${when.get(snapshot.id)}`}>
              Browse
            </Button>
          </li>
        ))}
      </ul>
      {browsing && <SnapshotBrowser destinationId={destinationId} snapshot={browsing} onClose={() => setBrowsing(null)} />}
    </>
  );
}
