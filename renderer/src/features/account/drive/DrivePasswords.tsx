import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, data } from '../../../api/client.ts';
import { Button } from '../../../ui/Button.tsx';
import { CopyField } from '../../../ui/CopyField.tsx';
import { ConfirmDialog } from '../../../ui/Dialog.tsx';
import { Field } from '../../../ui/Field.tsx';
import { Notice, Spinner } from '../../../ui/Notice.tsx';
import { ago } from '../../../ui/timeWords.ts';
import { accountKeys, useDrivePasswords } from '../queries.ts';
import { lastUseWords } from './drive-address.ts';

type DrivePassword = NonNullable<ReturnType<typeof useDrivePasswords>['data']>[number];
type Made = { name: string; password: string };

const madeOn = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric' });

/**
 * A drive password per computer: made here with the computer's name, shown once (the server
 * keeps only its hash), listed with its last use, and revoked at once when a computer is sold
 * or lost. The account's own password never opens the drive, so two-step sign-in stays whole.
 */
export function DrivePasswords() {
  const queryClient = useQueryClient();
  const passwords = useDrivePasswords();
  const [made, setMade] = useState<Made | null>(null);
  const [revoking, setRevoking] = useState<DrivePassword | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: accountKeys.drivePasswords });
  const revoke = useMutation({
    mutationFn: (id: string) => data(api.DELETE('/me/dav-passwords/{id}', { params: { path: { id } } })),
    onSuccess: () => setRevoking(null),
    onSettled: refresh,
  });
  const list = passwords.data ?? [];
  return (
    <section className="card section" aria-labelledby="drive-passwords-title">
      <h2 id="drive-passwords-title">Drive passwords</h2>
      <p className="muted">
        A computer opens the drive with your username and a drive password, never your own password. Make one for each computer, so you can
        take one away without changing the others.
      </p>
      {made ? (
        <NewPassword made={made} onDone={() => setMade(null)} />
      ) : (
        <MakeForm
          onMade={(next) => {
            setMade(next);
            void refresh();
          }}
        />
      )}
      {passwords.isPending && <Spinner label="Loading drive passwords" />}
      {passwords.isError && <Notice tone="error">{passwords.error.message}</Notice>}
      {revoke.isError && <Notice tone="error">{revoke.error.message}</Notice>}
      {passwords.isSuccess && list.length === 0 && <p className="drive-none">No drive passwords yet.</p>}
      {list.length > 0 && (
        <ul className="device-list drive-password-list" aria-label="Drive passwords">
          {list.map((p) => (
            <li key={p.id} className="device-row">
              <div className="device-text">
                <strong>{p.name}</strong>
                <div className="muted">
                  Made on {madeOn.format(new Date(p.created_at))} · {lastUseWords(p.last_used_at, ago)}
                </div>
              </div>
              <Button onClick={() => setRevoking(p)} aria-label={`Revoke ${p.name}`}>
                Revoke
              </Button>
            </li>
          ))}
        </ul>
      )}
      {revoking && (
        <ConfirmDialog
          title={`Revoke “${revoking.name}”?`}
          message={<p>The computer using this drive password is signed out of the drive at once. To use it again, make a new one.</p>}
          confirm="Revoke"
          danger
          busy={revoke.isPending}
          onConfirm={() => revoke.mutate(revoking.id)}
          onClose={() => {
            revoke.reset();
            setRevoking(null);
          }}
        />
      )}
    </section>
  );
}

function MakeForm({ onMade }: { onMade: (made: Made) => void }) {
  const [name, setName] = useState('');
  const make = useMutation({
    mutationFn: () => data(api.POST('/me/dav-passwords', { body: { name: name.trim() } })),
    onSuccess: (body) => {
      setName('');
      onMade({ name: body.name, password: body.password });
    },
  });
  return (
    <form
      className="drive-make"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        if (name.trim()) make.mutate();
      }}
    >
      <Field
        label="Which computer is it for?"
        hint="For example: Dad's laptop"
        maxLength={64}
        autoComplete="off"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={make.isError ? make.error.message : null}
      />
      <Button type="submit" variant="primary" disabled={make.isPending || !name.trim()}>
        Make a drive password
      </Button>
    </form>
  );
}

/** Shown this once: the server cannot show it again, so it says so plainly. */
function NewPassword({ made, onDone }: { made: Made; onDone: () => void }) {
  return (
    <div className="drive-new" role="group" aria-label={`New drive password for ${made.name}`}>
      <CopyField label={`Drive password for ${made.name}`} value={made.password} big />
      <p>
        <strong>Type or paste it on {made.name} now.</strong> It will not be shown again: if it is lost, revoke it and make a new one.
      </p>
      <Button variant="primary" onClick={onDone}>
        Done
      </Button>
    </div>
  );
}
