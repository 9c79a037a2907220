import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, data } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { InlineRename } from '../../ui/InlineRename.tsx';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import { ago } from '../../ui/timeWords.ts';
import { accountKeys, useSessions } from './queries.ts';

type Session = NonNullable<ReturnType<typeof useSessions>['data']>[number];

/** Where this account is signed in: each device by a name a person knows it by, renamed here, and signed out. */
export function DevicesSection() {
  const queryClient = useQueryClient();
  const sessions = useSessions();
  const signOut = useMutation({
    mutationFn: (id: string) => data(api.DELETE('/sessions/{id}', { params: { path: { id } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountKeys.sessions }),
  });
  const active = (sessions.data ?? []).filter((s) => s.status === 'active' || s.status === 'pending');
  return (
    <section className="card section" aria-labelledby="devices-title">
      <h2 id="devices-title">Your devices</h2>
      <p className="muted">Give each device a name you will recognise, and sign out one you no longer use.</p>
      {sessions.isPending && <Spinner label="Loading devices" />}
      {sessions.isError && <Notice tone="error">{sessions.error.message}</Notice>}
      {signOut.isError && <Notice tone="error">{signOut.error.message}</Notice>}
      <ul className="device-list" aria-label="Signed-in devices">
        {active.map((s) => (
          <DeviceRow key={s.id} session={s} signingOut={signOut.isPending} onSignOut={() => signOut.mutate(s.id)} />
        ))}
      </ul>
    </section>
  );
}

function DeviceRow({ session: s, signingOut, onSignOut }: { session: Session; signingOut: boolean; onSignOut: () => void }) {
  const queryClient = useQueryClient();
  const [renaming, setRenaming] = useState(false);
  const rename = useMutation({
    mutationFn: (device_name: string) => data(api.PATCH('/sessions/{id}', { params: { path: { id: s.id } }, body: { device_name } })),
    onSuccess: () => setRenaming(false),
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountKeys.sessions }),
  });
  const name = s.device_name ?? 'An unnamed device';
  return (
    <li className="device-row">
      {renaming ? (
        <InlineRename
          label={`New name for ${name}`}
          initial={s.device_name ?? ''}
          maxLength={64}
          busy={rename.isPending}
          error={rename.isError ? rename.error.message : null}
          onSave={(value) => rename.mutate(value)}
          onCancel={() => {
            rename.reset();
            setRenaming(false);
          }}
        />
      ) : (
        <>
          <div className="device-text">
            <strong>{name}</strong>
            {s.current && <span className="tag">This device</span>}
            {s.status === 'pending' && <span className="tag">Waiting for approval</span>}
            <div className="muted">{s.current ? 'In use now' : `Used ${ago(s.last_seen_at)}`}</div>
          </div>
          <div className="row device-actions">
            <Button onClick={() => setRenaming(true)} aria-label={`Rename ${name}`}>
              Rename
            </Button>
            {!s.current && (
              <Button onClick={onSignOut} disabled={signingOut} aria-label={`Sign out ${name}`}>
                Sign out
              </Button>
            )}
          </div>
        </>
      )}
    </li>
  );
}
