import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, data } from '../../../api/client.ts';
import { meQuery } from '../../../api/queries.ts';
import { Button } from '../../../ui/Button.tsx';
import { Dialog } from '../../../ui/Dialog.tsx';
import { formatBytes, plural } from '../../../ui/format.ts';
import { Notice, Spinner } from '../../../ui/Notice.tsx';
import { consoleKeys } from '../keys.ts';
import { useRun, useSnapshotFolder, useSnapshotPeople, type Snapshot, type SnapshotNode } from './queries.ts';

// Made on first use: making a formatter loads the locale's data, which costs a phone's main thread
// tens of milliseconds; a page that never shows such a date should not pay for it while it starts.
let dayFormatMade: Intl.DateTimeFormat | null = null;
const dayFormat = () => (dayFormatMade ??= new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'long', year: 'numeric' }));
let shortDateMade: Intl.DateTimeFormat | null = null;
const shortDate = () => (shortDateMade ??= new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric' }));

const SINCE_WORDS: Record<SnapshotNode['since'], string | null> = {
  unchanged: null,
  changed: 'Changed since',
  deleted: 'Deleted since',
};

/**
 * The family's files as they were on a snapshot's date: choose whose, open folders, pick a file or
 * folder, then put it back in its place or beside the current one. Progress and the result are
 * said in the dialog.
 */
export function SnapshotBrowser({ destinationId, snapshot, onClose }: { destinationId: string; snapshot: Snapshot; onClose: () => void }) {
  const me = useQuery(meQuery);
  const people = useSnapshotPeople(destinationId, snapshot.id);
  const [personId, setPersonId] = useState<string | null>(null);
  const [trail, setTrail] = useState<SnapshotNode[]>([]);
  const [picked, setPicked] = useState<SnapshotNode | null>(null);
  const [runId, setRunId] = useState<string | null>(null);
  const whose = personId ?? me.data?.id ?? null;
  const folder = useSnapshotFolder(destinationId, snapshot.id, whose, trail.at(-1)?.id ?? null);
  const run = useRun(runId);
  const client = useQueryClient();
  const start = useMutation({
    mutationFn: (mode: 'beside' | 'replace') =>
      data(
        api.POST('/admin/backup/destinations/{id}/snapshots/{snapshot}/restore', {
          params: { path: { id: destinationId, snapshot: snapshot.id } },
          body: { node_id: picked!.id, mode },
        }),
      ),
    onSuccess: (started) => setRunId(started.id),
  });
  const date = dayFormat().format(new Date(snapshot.at));
  const person = people.data?.find((p) => p.id === whose);
  const running = run.data?.state === 'running' || (runId !== null && run.data === undefined);
  const finished = run.data && run.data.state !== 'running' ? run.data : null;
  const succeeded = finished?.state === 'succeeded';
  // What became of each item ("Deleted since") is read again once the restore is done.
  useEffect(() => {
    if (succeeded) void client.invalidateQueries({ queryKey: consoleKeys.snapshots(destinationId) });
  }, [succeeded, client, destinationId]);

  const open = (node: SnapshotNode) => {
    setTrail([...trail, node]);
    setPicked(null);
  };
  const items = folder.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <Dialog title={`Files on ${date}`} onClose={onClose} wide>
      <p className="muted">
        Everyone&apos;s files as they were on {date}. Choose a file or folder to get it back. Nothing changes until you choose how.
      </p>
      {people.isError && <Notice tone="error">{people.error.message}</Notice>}
      {people.data && (
        <PersonPicker
          people={people.data}
          whose={whose}
          onChange={(id) => {
            setPersonId(id);
            setTrail([]);
            setPicked(null);
          }}
        />
      )}
      <SnapshotTrail top={person ? `${person.name}'s files` : 'Files'} trail={trail} onGo={(to) => (setTrail(to), setPicked(null))} />
      {folder.isPending && whose !== null && <Spinner label="Opening the backup" />}
      {folder.isError && <Notice tone="error">{folder.error.message}</Notice>}
      {folder.isSuccess && items.length === 0 && <p className="muted">This folder was empty on {date}.</p>}
      {items.length > 0 && (
        <ul className="snapshot-files" aria-label={`Files on ${date}`}>
          {items.map((node) => (
            <SnapshotItem key={node.id} node={node} picked={picked?.id === node.id} running={running} onPick={setPicked} onOpen={open} />
          ))}
        </ul>
      )}
      {folder.hasNextPage && (
        <Button variant="quiet" onClick={() => void folder.fetchNextPage()} disabled={folder.isFetchingNextPage}>
          Show more
        </Button>
      )}
      {start.isError && <Notice tone="error">{start.error.message}</Notice>}
      {running && (
        <Notice>
          <Spinner label="Restoring" /> Restoring {picked?.name}… {run.data ? `${plural(run.data.files, 'file')} so far.` : ''}
        </Notice>
      )}
      {finished?.state === 'succeeded' && finished.restored && (
        <Notice>
          {finished.restored.files === 0
            ? `Nothing to restore: ${finished.restored.path} is already as it was on ${date}.`
            : `Restored ${plural(finished.restored.files, 'file')} to ${finished.restored.path}${
                finished.restored.owner_id !== me.data?.id && person ? ` in ${person.name}'s files` : ''
              }.`}
        </Notice>
      )}
      {finished?.state === 'failed' && (
        <Notice tone="error">{finished.error ?? 'The restore did not finish. Nothing was restored.'}</Notice>
      )}
      {picked && !running && <GetItBack name={picked.name} date={date} busy={start.isPending} onRestore={(mode) => start.mutate(mode)} />}
      <div className="dialog-actions">
        <Button variant="quiet" onClick={onClose}>
          Close
        </Button>
      </div>
    </Dialog>
  );
}

type Person = NonNullable<ReturnType<typeof useSnapshotPeople>['data']>[number];

function PersonPicker({ people, whose, onChange }: { people: Person[]; whose: string | null; onChange: (id: string) => void }) {
  return (
    <label className="snapshot-person">
      <span>Whose files</span>
      <select value={whose ?? ''} onChange={(event) => onChange(event.target.value)}>
        {people.map((p) => (
          <option key={p.id} value={p.id} disabled={!p.exists_now}>
            {p.name} ({plural(p.files, 'file')}){p.exists_now ? '' : ' — no longer here'}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Where the browser is in the snapshot: each folder above is a way back. */
function SnapshotTrail({ top, trail, onGo }: { top: string; trail: SnapshotNode[]; onGo: (trail: SnapshotNode[]) => void }) {
  return (
    <nav aria-label="Folder path" className="snapshot-trail">
      <button type="button" className="snapshot-link" onClick={() => onGo([])} aria-current={trail.length === 0 ? 'page' : undefined}>
        {top}
      </button>
      {trail.map((node, i) => (
        <span key={node.id}>
          <span aria-hidden="true"> › </span>
          <button
            type="button"
            className="snapshot-link"
            onClick={() => onGo(trail.slice(0, i + 1))}
            aria-current={i === trail.length - 1 ? 'page' : undefined}
          >
            {node.name}
          </button>
        </span>
      ))}
    </nav>
  );
}

/** A file or folder of the snapshot: chosen to get it back, a folder also opened. */
function SnapshotItem({
  node,
  picked,
  running,
  onPick,
  onOpen,
}: {
  node: SnapshotNode;
  picked: boolean;
  running: boolean;
  onPick: (node: SnapshotNode) => void;
  onOpen: (node: SnapshotNode) => void;
}) {
  const since = SINCE_WORDS[node.since];
  return (
    <li className={picked ? 'picked' : undefined}>
      <input
        type="radio"
        name="snapshot-pick"
        id={`pick-${node.id}`}
        checked={picked}
        onChange={() => onPick(node)}
        aria-label={`Choose ${node.name}`}
        disabled={running}
      />
      {node.type === 'folder' ? (
        <button type="button" className="snapshot-link snapshot-name" onClick={() => onOpen(node)} aria-label={`Open ${node.name}`}>
          📁 {node.name}
        </button>
      ) : (
        <label htmlFor={`pick-${node.id}`} className="snapshot-name">
          {node.name}
        </label>
      )}
      <span className="muted snapshot-meta">
        {node.type === 'folder' ? plural(node.children, 'item') : formatBytes(node.size)} · {shortDate().format(new Date(node.updated_at))}
        {since && <span className={node.since === 'deleted' ? 'tag tag-warn' : 'tag'}>{since}</span>}
      </span>
    </li>
  );
}

function GetItBack({
  name,
  date,
  busy,
  onRestore,
}: {
  name: string;
  date: string;
  busy: boolean;
  onRestore: (mode: 'beside' | 'replace') => void;
}) {
  return (
    <section className="snapshot-actions" aria-label="Get it back">
      <p>
        <strong>{name}</strong> as it was on {date}:
      </p>
      <div className="dialog-actions">
        <Button onClick={() => onRestore('beside')} disabled={busy}>
          Restore beside the current one
        </Button>
        <Button variant="primary" onClick={() => onRestore('replace')} disabled={busy}>
          Put back in its place
        </Button>
      </div>
      <p className="muted">
        “Beside” makes a copy with “(restored …)” and this date in its name, and leaves the current one as it is. “In its place” brings back
        what is missing; a file that changed since keeps today&apos;s version in its history.
      </p>
    </section>
  );
}
