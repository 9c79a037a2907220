import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { data, publicApi } from '../../api/client.ts';
import { restoreSnapshotsThroughDesktop, restoresThroughDesktop, restoreThroughDesktop } from '../../api/desktop.ts';
import { ApiError } from '../../api/error-messages.ts';
import { statusQuery } from '../../api/queries.ts';
import { Button } from '../../ui/Button.tsx';
import { Field } from '../../ui/Field.tsx';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import { BUCKET_FIELDS, bucketBody, bucketComplete, EMPTY_BUCKET, S3BucketFields, type S3Bucket } from '../../ui/S3BucketFields.tsx';
import { formatBytes, plural } from '../../ui/format.ts';
import { AuthCard } from './AuthCard.tsx';
import { ChooseSnapshot, type Snapshot } from './ChooseSnapshot.tsx';

/**
 * A fresh server brought back from a backup: the folder that holds it, or the online bucket,
 * and the emergency kit (it decrypts an encrypted backup and proves every backup is the
 * family's own; the server asks for it), which snapshot, then the restore's progress until the
 * server starts again on the restored data and the family signs in as before. A snapshot made
 * before backups were signed is offered only with the owner's word that nobody changed it.
 */
export function RestoreForm({ codeRequired, onCancel }: { codeRequired: boolean; onCancel: () => void }) {
  const [kind, setKind] = useState<'folder' | 's3'>('folder');
  const [bucket, setBucket] = useState<S3Bucket>(EMPTY_BUCKET);
  const [folder, setFolder] = useState('');
  const [key, setKey] = useState('');
  const [needsKey, setNeedsKey] = useState(false);
  const [setupCode, setSetupCode] = useState('');
  const [snapshots, setSnapshots] = useState<Snapshot[] | null>(null);
  const [error, setError] = useState<{ field: string | null; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [started, setStarted] = useState(false);
  const source = () => ({
    ...(kind === 's3' ? bucketBody(bucket) : { kind: 'folder' as const, path: folder.trim() }),
    ...(key.trim() && { key: key.trim() }),
    ...(codeRequired && { setup_code: setupCode.trim() }),
  });
  const fail = (caught: unknown) => {
    if (caught instanceof ApiError && (caught.code === 'backup_key_required' || caught.code === 'backup_key_wrong')) setNeedsKey(true);
    setError(refusal(caught));
  };

  async function find(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setBusy(true);
    try {
      // In the desktop window through the app (its server takes no restore from the network), as setup is.
      const found = restoresThroughDesktop()
        ? await restoreSnapshotsThroughDesktop(source())
        : await data(publicApi.POST('/setup/restore/snapshots', { body: source() }));
      if (found.items.length === 0)
        setError({ field: kind === 's3' ? 'prefix' : 'path', message: 'This backup holds no finished snapshot.' });
      else setSnapshots(found.items);
    } catch (caught) {
      fail(caught);
    } finally {
      setBusy(false);
    }
  }

  async function restore(choice: { snapshot_id: string; accept_unsigned?: boolean }) {
    setError(null);
    setBusy(true);
    try {
      const body = { ...source(), ...choice };
      if (restoresThroughDesktop()) await restoreThroughDesktop(body);
      else await data(publicApi.POST('/setup/restore', { body }));
      setStarted(true);
    } catch (caught) {
      fail(caught);
    } finally {
      setBusy(false);
    }
  }

  if (started) return <RestoreProgress onFailed={(message) => (setStarted(false), setError({ field: null, message }))} />;
  if (snapshots)
    return (
      <ChooseSnapshot
        snapshots={snapshots}
        busy={busy}
        error={error?.message ?? null}
        onRestore={(choice) => void restore(choice)}
        onBack={() => setSnapshots(null)}
      />
    );
  return (
    <AuthCard title="Restore from a backup">
      <p className="muted">Bring everything back from a Hearth backup: accounts, passwords, files, photos and links, as they were.</p>
      <form onSubmit={find} noValidate>
        <BackupKind kind={kind} onChange={(chosen) => (setKind(chosen), setError(null))} />
        {kind === 'folder' ? (
          <Field
            label="Backup folder"
            hint="The folder you chose for backups, on its drive, e.g. /media/usb-disk/backups"
            autoComplete="off"
            spellCheck={false}
            value={folder}
            error={error?.field === 'path' ? error.message : null}
            onChange={(e) => setFolder(e.target.value)}
          />
        ) : (
          <S3BucketFields value={bucket} onChange={setBucket} error={error} />
        )}
        {(needsKey || kind === 's3') && (
          <KitKeyFields
            bucket={kind === 's3'}
            value={key}
            error={error?.field === 'key' ? error.message : null}
            onChange={(value) => {
              setKey(value);
              if (error?.field === 'key') setError(null);
            }}
          />
        )}
        {codeRequired && <SetupCodeField value={setupCode} onChange={setSetupCode} />}
        {error && error.field === null && <Notice tone="error">{error.message}</Notice>}
        <Button
          type="submit"
          variant="primary"
          block
          disabled={busy || (kind === 's3' ? !bucketComplete(bucket) || key.trim() === '' : folder.trim() === '')}
        >
          {busy ? 'Looking…' : 'Find backups'}
        </Button>
        <Button variant="quiet" block onClick={onCancel}>
          Set up a new Hearth instead
        </Button>
      </form>
    </AuthCard>
  );
}

/** The code a server started without a desktop asks of whoever sets it up (or restores it). */
function SetupCodeField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <Field
      label="Setup code"
      hint='Shown on the computer where Hearth was started, in the line "Finish setup at … with setup code".'
      inputMode="numeric"
      autoComplete="off"
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

/** The restore under way; when the server answers as set up, it is the restored one: the sign-in page follows. */
export function RestoreProgress({ onFailed }: { onFailed?: (message: string) => void }) {
  const queryClient = useQueryClient();
  const run = useQuery({
    queryKey: ['setup-restore'],
    queryFn: async () => {
      try {
        const current = await data(publicApi.GET('/setup/restore'));
        if (current.state === 'failed') onFailed?.(current.error ?? 'The restore did not finish.');
        return current;
      } catch (caught) {
        // Set up already (409), or not answering while it starts again on the restored data.
        if (caught instanceof ApiError && (caught.code === 'already_set_up' || caught.code === 'network'))
          void queryClient.invalidateQueries({ queryKey: statusQuery.queryKey });
        return null;
      }
    },
    refetchInterval: 1000,
  });
  return (
    <AuthCard title="Restoring from the backup">
      <Spinner label="Restoring" />
      <p role="status">
        {run.data && run.data.state === 'running'
          ? `${plural(run.data.files, 'file')} back so far (${formatBytes(run.data.bytes)}).`
          : 'Hearth starts again on the restored data…'}
      </p>
      <p className="muted">Keep this page open. Then everyone signs in with their usual password.</p>
    </AuthCard>
  );
}

/** The emergency kit, typed or read from its file (its AGE-SECRET-KEY-1… line): every backup asks for it on a new Hearth. */
function KitKeyFields({
  bucket,
  value,
  error,
  onChange,
}: {
  bucket: boolean;
  value: string;
  error: string | null;
  onChange: (key: string) => void;
}) {
  return (
    <>
      <Field
        label="Emergency kit key"
        hint={`${bucket ? 'A bucket backup is always encrypted' : 'Hearth needs the kit to prove this backup is yours, and to open it'}. Type the key printed on the emergency kit (AGE-SECRET-KEY-1…), or open the kit file below.`}
        autoComplete="off"
        spellCheck={false}
        value={value}
        error={error}
        onChange={(e) => onChange(e.target.value)}
      />
      <label className="field">
        <span className="label">Emergency kit file</span>
        <input
          type="file"
          accept=".txt,text/plain"
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (!file) return;
            void file.text().then((text) => onChange(/AGE-SECRET-KEY-1[0-9A-Z]+/i.exec(text)?.[0] ?? text.trim()));
          }}
        />
      </label>
    </>
  );
}

/** Where the backup is: a drive or folder, or an online bucket. */
function BackupKind({ kind, onChange }: { kind: 'folder' | 's3'; onChange: (kind: 'folder' | 's3') => void }) {
  return (
    <fieldset className="restore-choice restore-kind">
      <legend>Where is the backup?</legend>
      <label>
        <input type="radio" name="restore-kind" checked={kind === 'folder'} onChange={() => onChange('folder')} /> A drive or folder
      </label>
      <label>
        <input type="radio" name="restore-kind" checked={kind === 's3'} onChange={() => onChange('s3')} /> An online bucket (S3)
      </label>
    </fieldset>
  );
}

/** A refusal as the form shows it: on the field it points at, and in the server's own words where it speaks of the place. */
function refusal(caught: unknown): { field: string | null; message: string } {
  const known = ['path', 'key', ...BUCKET_FIELDS] as readonly string[];
  const field = caught instanceof ApiError && known.includes(caught.field ?? '') ? caught.field! : null;
  // The server's own sentence where it says what is wrong with the place (a bucket's answer, a folder rule).
  const own = caught instanceof ApiError && (caught.code === 'backup_not_found' || caught.code === 'invalid_destination');
  return { field, message: own ? (caught as ApiError).serverMessage : String((caught as Error).message) };
}
