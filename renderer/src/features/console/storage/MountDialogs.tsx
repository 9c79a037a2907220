import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, data } from '../../../api/client.ts';
import { ApiError } from '../../../api/error-messages.ts';
import { Button } from '../../../ui/Button.tsx';
import { Dialog } from '../../../ui/Dialog.tsx';
import { Field } from '../../../ui/Field.tsx';
import { Notice } from '../../../ui/Notice.tsx';
import { consoleKeys } from '../keys.ts';
import { driveName } from './driveWords.ts';
import { type Drive } from './queries.ts';

function useStorageRefresh() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: consoleKeys.libraries });
    void queryClient.invalidateQueries({ queryKey: consoleKeys.drives });
  };
}

/** A drive becomes a library: Hearth keeps its files in a "Hearth" folder there and leaves the rest alone. */
export function MountDialog({ drive, onClose }: { drive: Drive; onClose: () => void }) {
  const refresh = useStorageRefresh();
  const [name, setName] = useState(drive.label ?? driveName(drive));
  const [makeDefault, setMakeDefault] = useState(false);
  const mount = useMutation({
    mutationFn: () =>
      data(
        api.POST('/admin/drives/{id}/mount', {
          params: { path: { id: drive.id } },
          body: { name: name.trim(), make_default: makeDefault },
        }),
      ),
    onSuccess: onClose,
    onSettled: refresh,
  });
  return (
    <Dialog title={`Keep files on ${driveName(drive)}`} onClose={onClose}>
      <form
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          mount.mutate();
        }}
      >
        <p className="dialog-text">Hearth keeps its files in a folder named Hearth on this drive. Everything else on it stays as it is.</p>
        <Field label="Name" hint="How this place is called in Hearth." value={name} onChange={(e) => setName(e.target.value)} />
        <label className="check">
          <input type="checkbox" checked={makeDefault} onChange={(e) => setMakeDefault(e.target.checked)} /> Put new files here
        </label>
        {mount.isError && <MountError error={mount.error} />}
        <div className="dialog-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={mount.isPending || !name.trim()}>
            {mount.isPending ? 'Opening the drive…' : 'Keep files here'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** Several drives as one place: new files go to the drive with the most room. */
export function PoolDialog({ drives, onClose }: { drives: Drive[]; onClose: (done: boolean) => void }) {
  const refresh = useStorageRefresh();
  const [name, setName] = useState('Family drives');
  const [makeDefault, setMakeDefault] = useState(true);
  const pool = useMutation({
    mutationFn: () =>
      data(api.POST('/admin/drives/pool', { body: { name: name.trim(), drive_ids: drives.map((d) => d.id), make_default: makeDefault } })),
    onSuccess: () => onClose(true),
    onSettled: refresh,
  });
  return (
    <Dialog title={`Combine ${drives.length} drives`} onClose={() => onClose(false)}>
      <form
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          pool.mutate();
        }}
      >
        <p className="dialog-text">
          {drives.map(driveName).join(', ')} become one place for files. Each new file goes to the drive with the most room. All of them
          must stay plugged in.
        </p>
        <Field label="Name" value={name} onChange={(e) => setName(e.target.value)} />
        <label className="check">
          <input type="checkbox" checked={makeDefault} onChange={(e) => setMakeDefault(e.target.checked)} /> Put new files here
        </label>
        {pool.isError && <MountError error={pool.error} />}
        <div className="dialog-actions">
          <Button onClick={() => onClose(false)}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={pool.isPending || !name.trim()}>
            {pool.isPending ? 'Combining…' : 'Combine'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** The owner is told what the system said too: a drive that will not open is theirs to fix. */
function MountError({ error }: { error: Error }) {
  const detail = error instanceof ApiError && error.code === 'mount_failed' ? error.serverMessage : null;
  return (
    <Notice tone="error">
      {error.message}
      {detail && <span className="notice-detail">{detail}</span>}
    </Notice>
  );
}
