import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, data } from '../../../api/client.ts';
import { ApiError } from '../../../api/error-messages.ts';
import { Button } from '../../../ui/Button.tsx';
import { Field } from '../../../ui/Field.tsx';
import { Notice } from '../../../ui/Notice.tsx';
import { BUCKET_FIELDS, bucketBody, bucketComplete, EMPTY_BUCKET, S3BucketFields, type S3Bucket } from '../../../ui/S3BucketFields.tsx';
import { consoleKeys } from '../keys.ts';
import type { Destination } from './queries.ts';

/**
 * A folder on another drive, or an off-site S3 bucket, becomes a backup destination; the
 * server's reason in words when it cannot (on the field it names, for a bucket).
 */
export function AddDestinationForm({
  onDone,
  initialPath = '',
  cancelLabel = 'Cancel',
}: {
  onDone: (added: Destination | null) => void;
  /** The folder already filled in (a drive picked from a list). */
  initialPath?: string;
  cancelLabel?: string;
}) {
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<'folder' | 's3'>('folder');
  const [bucket, setBucket] = useState<S3Bucket>(EMPTY_BUCKET);
  const [path, setPath] = useState(initialPath);
  const [name, setName] = useState('');
  // On unless the owner turns it off: a disk that leaves the house must not hand anyone the family's files.
  const [encrypt, setEncrypt] = useState(true);
  const add = useMutation({
    mutationFn: () =>
      data(
        api.POST('/admin/backup/destinations', {
          body:
            kind === 's3'
              ? { ...bucketBody(bucket), ...(name.trim() ? { name: name.trim() } : {}) }
              : { kind: 'folder', path: path.trim(), encrypt, ...(name.trim() ? { name: name.trim() } : {}) },
        }),
      ),
    onSuccess: (added) => {
      void queryClient.invalidateQueries({ queryKey: consoleKeys.backups });
      onDone(added);
    },
  });
  // The server says which folder rule was broken ("inside the Hearth data folder..."): more use than a general sentence.
  const refused = add.error instanceof ApiError && add.error.code === 'invalid_destination' ? add.error : null;
  const pathError = kind === 'folder' && refused ? refused.serverMessage : null;
  const bucketError =
    kind === 's3' && refused && (BUCKET_FIELDS as readonly string[]).includes(refused.field ?? '')
      ? { field: refused.field ?? null, message: refused.serverMessage }
      : null;
  const title = kind === 's3' ? 'Add an off-site bucket' : 'Add a backup folder';
  return (
    <form
      className="card console-card backup-add"
      aria-label={title}
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        add.mutate();
      }}
    >
      <h3>{title}</h3>
      <BackupKindChoice kind={kind} onChange={(chosen) => (setKind(chosen), add.reset())} />
      {kind === 's3' ? (
        <>
          <p className="muted">
            A copy in another place survives a fire, a theft or a break-in. Any S3-compatible storage works: Backblaze B2, Wasabi, Amazon
            S3, or a MinIO at a relative's house.
          </p>
          <p className="muted">
            It is always encrypted: the bucket's owner sees neither names nor content. To restore it you will need the emergency kit, which
            Hearth offers right after.
          </p>
          <S3BucketFields value={bucket} onChange={setBucket} error={bucketError} />
        </>
      ) : (
        <p className="muted">
          Choose a folder on another drive, such as a USB disk: if this PC's disk dies, the family's files are still there.
        </p>
      )}
      {kind === 'folder' && (
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
      )}
      <Field
        label="Name (optional)"
        hint={kind === 's3' ? 'How this page calls it, e.g. Off-site at Backblaze' : 'How this page calls it, e.g. Blue USB disk'}
        maxLength={64}
        value={name}
        onChange={(e) => setName(e.target.value)}
      />
      {kind === 'folder' && <EncryptSwitch checked={encrypt} onChange={setEncrypt} />}
      {add.isError && pathError === null && bucketError === null && (
        <Notice tone="error">{refused ? refused.serverMessage : add.error.message}</Notice>
      )}
      <div className="row">
        <Button type="submit" variant="primary" disabled={add.isPending || (kind === 's3' ? !bucketComplete(bucket) : path.trim() === '')}>
          {kind === 's3' ? (add.isPending ? 'Checking the bucket…' : 'Add bucket') : 'Add folder'}
        </Button>
        <Button variant="quiet" onClick={() => onDone(null)}>
          {cancelLabel}
        </Button>
      </div>
    </form>
  );
}

function BackupKindChoice({ kind, onChange }: { kind: 'folder' | 's3'; onChange: (kind: 'folder' | 's3') => void }) {
  return (
    <fieldset className="backup-kind">
      <legend className="visually-hidden">Where to back up</legend>
      <label>
        <input type="radio" name="backup-kind" checked={kind === 'folder'} onChange={() => onChange('folder')} /> On a drive (USB or second
        disk)
      </label>
      <label>
        <input type="radio" name="backup-kind" checked={kind === 's3'} onChange={() => onChange('s3')} /> Off-site (S3 bucket)
      </label>
    </fieldset>
  );
}

function EncryptSwitch({ checked, onChange }: { checked: boolean; onChange: (on: boolean) => void }) {
  return (
    <div className="backup-encrypt choice">
      <label>
        <input
          type="checkbox"
          role="switch"
          aria-describedby="backup-encrypt-hint"
          checked={checked}
          onChange={(e) => onChange(e.target.checked)}
        />{' '}
        Encrypt this backup
        {/* Read as the switch's description, not as part of its name. */}
        <span className="hint" id="backup-encrypt-hint" aria-hidden="true">
          Whoever finds the disk cannot read it. To restore it you will need the emergency kit, which Hearth offers right after.
        </span>
      </label>
    </div>
  );
}
