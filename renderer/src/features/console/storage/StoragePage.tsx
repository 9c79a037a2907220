import { useState } from 'react';
import { Button } from '../../../ui/Button.tsx';
import { Notice, Spinner } from '../../../ui/Notice.tsx';
import { ConsoleLayout } from '../ConsoleLayout.tsx';
import { Capabilities } from './Capabilities.tsx';
import { DriveCard } from './DriveCard.tsx';
import { EraseDialog } from './EraseDialog.tsx';
import { FaceFinding } from './FaceFinding.tsx';
import { LibraryCard } from './LibraryCard.tsx';
import { MountDialog, PoolDialog } from './MountDialogs.tsx';
import { PlaybackCopies } from './PlaybackCopies.tsx';
import { useDrives, useLibraries, type Drive } from './queries.ts';

type Open = null | { kind: 'erase' | 'mount'; drive: Drive } | { kind: 'pool'; drives: Drive[] };

/** Where the family's files are kept (libraries), and the drives of this PC. */
export function StoragePage() {
  const libraries = useLibraries();
  const drives = useDrives();
  const [open, setOpen] = useState<Open>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const libraryName = (id: string | null) => (id === null ? null : (libraries.data?.find((l) => l.id === id)?.name ?? 'a library'));
  const chosen = drives.data?.items.filter((d) => selected.has(d.id)) ?? [];
  const capabilities = drives.data?.capabilities;
  // A PC with only its own disk has nothing Hearth could erase, open or combine: what it does not
  // allow yet would only worry the owner. Said once another drive is plugged in.
  const others = drives.data?.items.filter((d) => !d.system) ?? [];
  const onlySystem = drives.data !== undefined && drives.data.items.length > 0 && others.length === 0;

  return (
    <ConsoleLayout title="Storage">
      <section className="console-section" aria-labelledby="libraries-title">
        <h2 id="libraries-title">Where files are kept</h2>
        {libraries.isPending && <Spinner label="Loading storage" />}
        {libraries.isError && <Notice tone="error">{libraries.error.message}</Notice>}
        <ul className="card-list" aria-label="Storage places">
          {libraries.data?.map((library) => (
            <LibraryCard key={library.id} library={library} />
          ))}
        </ul>
      </section>

      <PlaybackCopies />

      <FaceFinding />

      <section className="console-section" aria-labelledby="drives-title">
        <h2 id="drives-title">Drives in this PC</h2>
        {capabilities && others.length > 0 && <Capabilities capabilities={capabilities} />}
        {onlySystem && <p className="muted">Only this PC’s own disk is here. Plug in a USB disk to keep files or backups on it.</p>}
        {drives.isPending && <Spinner label="Looking for drives" />}
        {drives.isError && <Notice tone="error">{drives.error.message}</Notice>}
        {drives.data?.items.length === 0 && <p className="muted empty">No drives found.</p>}
        {chosen.length > 0 && (
          <div className="pool-bar" role="region" aria-label="Combine drives">
            <span>{chosen.length === 1 ? '1 drive chosen. Choose one more to combine them.' : `${chosen.length} drives chosen.`}</span>
            <Button
              variant="primary"
              disabled={chosen.length < 2 || capabilities?.pool.available === false}
              onClick={() => setOpen({ kind: 'pool', drives: chosen })}
            >
              Combine into one
            </Button>
            <Button variant="quiet" onClick={() => setSelected(new Set())}>
              Clear
            </Button>
          </div>
        )}
        <ul className="card-list" aria-label="Drives">
          {drives.data?.items.map((drive) => (
            <DriveCard
              key={drive.id}
              drive={drive}
              libraryName={libraryName(drive.library_id)}
              capabilities={drives.data.capabilities}
              selected={selected.has(drive.id)}
              onSelect={(on) => {
                const next = new Set(selected);
                if (on) next.add(drive.id);
                else next.delete(drive.id);
                setSelected(next);
              }}
              onMount={() => setOpen({ kind: 'mount', drive })}
              onErase={() => setOpen({ kind: 'erase', drive })}
            />
          ))}
        </ul>
      </section>

      {open?.kind === 'erase' && capabilities && (
        <EraseDialog
          drive={open.drive}
          libraryName={libraryName(open.drive.library_id)}
          capability={capabilities.format}
          onClose={() => setOpen(null)}
        />
      )}
      {open?.kind === 'mount' && <MountDialog drive={open.drive} onClose={() => setOpen(null)} />}
      {open?.kind === 'pool' && (
        <PoolDialog
          drives={open.drives}
          onClose={(done) => {
            setOpen(null);
            if (done) setSelected(new Set());
          }}
        />
      )}
    </ConsoleLayout>
  );
}
