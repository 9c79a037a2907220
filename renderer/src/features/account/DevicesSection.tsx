import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import { formatDate } from '../../ui/format.ts';
import { accountKeys, useSessions } from './queries.ts';

/** Where this account is signed in; any other device can be signed out from here. */
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
      {sessions.isPending && <Spinner label="Loading devices" />}
      {sessions.isError && <Notice tone="error">{sessions.error.message}</Notice>}
      {signOut.isError && <Notice tone="error">{signOut.error.message}</Notice>}
      <ul className="device-list" aria-label="Signed-in devices">
        {active.map((s) => (
          <li key={s.id} className="device-row">
            <div>
              <strong>{s.device_name ?? s.platform ?? 'Unknown device'}</strong>
              {s.current && <span className="tag">This device</span>}
              {s.status === 'pending' && <span className="tag">Waiting for approval</span>}
              <div className="muted">
                Last used {formatDate(s.last_seen_at)}
                {s.ip ? ` · ${s.ip}` : ''}
              </div>
            </div>
            {!s.current && (
              <Button onClick={() => signOut.mutate(s.id)} disabled={signOut.isPending} aria-label={`Sign out ${s.device_name ?? s.platform ?? 'unknown device'}`}>
                Sign out
              </Button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
