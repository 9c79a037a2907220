import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, data } from '../../../api/client.ts';
import { ApiError } from '../../../api/error-messages.ts';
import { Button } from '../../../ui/Button.tsx';
import { Field } from '../../../ui/Field.tsx';
import { Notice } from '../../../ui/Notice.tsx';
import { consoleKeys } from '../keys.ts';
import type { Destination } from './queries.ts';

/** A folder on another drive becomes a backup destination; the server's reason in words when it cannot. */
export function AddDestinationForm({
  onDone,
  initialPath = '',
  encryptAtFirst = false,
  cancelLabel = 'Cancel',
}: {
  onDone: (added: Destination | null) => void;
  /** The folder already filled in (a drive picked from a list). */
  initialPath?: string;
  encryptAtFirst?: boolean;
  cancelLabel?: string;
}) {
  const queryClient = useQueryClient();
  const [path, setPath] = useState(initialPath);
  const [name, setName] = useState('');
  const [encrypt, setEncrypt] = useState(encryptAtFirst);
  const add = useMutation({
    mutationFn: () =>
      data(
        api.POST('/admin/backup/destinations', {
          body: { kind: 'folder', path: path.trim(), encrypt, ...(name.trim() ? { name: name.trim() } : {}) },
        }),
      ),
    onSuccess: (added) => {
      void queryClient.invalidateQueries({ queryKey: consoleKeys.backups });
      onDone(added);
    },
  });
  // The server says which folder rule was broken ("inside the Hearth data folder..."): more use than a general sentence.
  const pathError = add.error instanceof ApiError && add.error.code === 'invalid_destination' ? add.error.serverMessage : null;
  return (
    <form
      className="card console-card backup-add"
      aria-label="Add a backup folder"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        add.mutate();
      }}
    >
      <h3>Add a backup folder</h3>
      <p className="muted">
        Choose a folder on another drive, such as a USB disk: if this PC's disk dies, the family's files are still there.
      </p>
      <Field
        label="Folder"
        hint="The full path, e.g. /media/usb-disk/backups"
        required
        value={path}
        onChange={(e) => setPath(e.target.value)}
        error={pathError}
        autoComplete="off"
        spellCheck={false}
      />
      <Field
        label="Name (optional)"
        hint="How this page calls it, e.g. Blue USB disk"
        maxLength={64}
        value={name}
        onChange={(e) => setName(e.target.value)}
      />
      <div className="backup-encrypt choice">
        <label>
          <input
            type="checkbox"
            role="switch"
            aria-describedby="backup-encrypt-hint"
            checked={encrypt}
            onChange={(e) => setEncrypt(e.target.checked)}
          />{' '}
          Encrypt this backup
          {/* Read as the switch's description, not as part of its name. */}
          <span className="hint" id="backup-encrypt-hint" aria-hidden="true">
            Whoever finds the disk cannot read it. To restore it you will need the emergency kit, which Hearth offers right after.
          </span>
        </label>
      </div>
      {add.isError && pathError === null && <Notice tone="error">{add.error.message}</Notice>}
      <div className="row">
        <Button type="submit" variant="primary" disabled={add.isPending || path.trim() === ''}>
          Add folder
        </Button>
        <Button variant="quiet" onClick={() => onDone(null)}>
          {cancelLabel}
        </Button>
      </div>
    </form>
  );
}
