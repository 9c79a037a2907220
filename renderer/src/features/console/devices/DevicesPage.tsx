import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, data } from '../../../api/client.ts';
import { pendingDevicesQuery } from '../../../api/queries.ts';
import { Button } from '../../../ui/Button.tsx';
import { InlineRename } from '../../../ui/InlineRename.tsx';
import { Notice, Spinner } from '../../../ui/Notice.tsx';
import { ago } from '../../../ui/timeWords.ts';
import { ConsoleLayout } from '../ConsoleLayout.tsx';
import { consoleKeys } from '../keys.ts';
import { deviceLabel, personName, platformName, timeOfDay } from './deviceWords.ts';
import { useAdminSessions, usePendingDevices, type AdminSession, type PendingDevice } from './queries.ts';
import './devices.css';

/** New phones waiting to be let in (live), and every account's signed-in devices. */
export function DevicesPage() {
  const pending = usePendingDevices();
  return (
    <ConsoleLayout title="Devices">
      <section className="console-section" aria-labelledby="waiting-title">
        <h2 id="waiting-title">Waiting for approval</h2>
        {pending.isPending && <Spinner label="Loading devices waiting for approval" />}
        {pending.isError && <Notice tone="error">{pending.error.message}</Notice>}
        {pending.data?.length === 0 && (
          <p className="muted empty">No device is waiting. When someone signs in on a new phone or computer, it appears here at once.</p>
        )}
        <ul className="request-list" aria-label="Devices waiting for approval">
          {pending.data?.map((device) => (
            <PendingRequest key={device.id} device={device} />
          ))}
        </ul>
      </section>
      <SignedInDevices />
    </ConsoleLayout>
  );
}

function PendingRequest({ device }: { device: PendingDevice }) {
  const queryClient = useQueryClient();
  const decide = useMutation({
    mutationFn: (verdict: 'approve' | 'deny') =>
      data(api.POST(verdict === 'approve' ? '/devices/{id}/approve' : '/devices/{id}/deny', { params: { path: { id: device.id } } })),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: pendingDevicesQuery.queryKey });
      void queryClient.invalidateQueries({ queryKey: consoleKeys.sessions });
    },
  });
  const name = deviceLabel(device);
  const person = personName(device);
  const titleId = `request-${device.id}`;
  const spelled = device.pairing_code.split('').join(' ');
  return (
    <li className="card request" aria-labelledby={titleId}>
      <div className="request-main">
        <h3 id={titleId}>
          {name} wants to open {person}'s account
        </h3>
        <dl className="facts">
          <div>
            <dt>Account</dt>
            <dd>
              {person}
              {device.display_name && <span className="muted"> (signs in as {device.username})</span>}
            </dd>
          </div>
          <div>
            <dt>Device</dt>
            <dd>{name}</dd>
          </div>
          {device.platform && (
            <div>
              <dt>System</dt>
              <dd>{platformName(device.platform)}</dd>
            </div>
          )}
          <div>
            <dt>Address</dt>
            <dd className="mono">{device.ip ?? 'unknown'}</dd>
          </div>
          <div>
            <dt>Asked</dt>
            <dd>{timeOfDay(device.created_at)}</dd>
          </div>
        </dl>
      </div>
      <div className="request-code">
        <p className="muted">Code on the phone</p>
        <p className="pairing-code" aria-label={`Pairing code ${spelled}`}>
          {device.pairing_code}
        </p>
        <p className="request-hint">Approve only if the phone shows the same code.</p>
      </div>
      <div className="request-actions">
        {decide.isError && <Notice tone="error">{decide.error.message}</Notice>}
        <div className="row">
          <Button
            variant="primary"
            icon="check"
            disabled={decide.isPending}
            onClick={() => decide.mutate('approve')}
            aria-label={`Approve ${name} for ${person}`}
          >
            Approve
          </Button>
          {/* Unlike Approve at a glance, so a hurried tap does not let the wrong phone in. */}
          <Button icon="close" disabled={decide.isPending} onClick={() => decide.mutate('deny')} aria-label={`Deny ${name} for ${person}`}>
            Deny
          </Button>
        </div>
        <p className="warning">If nobody is setting up a new device right now, someone may be trying to get in: deny.</p>
      </div>
    </li>
  );
}

function SignedInDevices() {
  const queryClient = useQueryClient();
  const sessions = useAdminSessions();
  const signOut = useMutation({
    mutationFn: (id: string) => data(api.DELETE('/admin/sessions/{id}', { params: { path: { id } } })),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: consoleKeys.sessions }),
  });
  const byAccount = new Map<string, AdminSession[]>();
  // A device still waiting is not signed in: it is listed above, with its code.
  for (const s of (sessions.data ?? []).filter((x) => x.status === 'active'))
    byAccount.set(s.user_id, [...(byAccount.get(s.user_id) ?? []), s]);
  return (
    <section className="console-section" aria-labelledby="signed-in-title">
      <h2 id="signed-in-title">Signed-in devices</h2>
      <p className="muted">Sign out a device that is lost, sold or not recognised. Its person can sign in again with their password.</p>
      {sessions.isPending && <Spinner label="Loading signed-in devices" />}
      {sessions.isError && <Notice tone="error">{sessions.error.message}</Notice>}
      {signOut.isError && <Notice tone="error">{signOut.error.message}</Notice>}
      <div className="account-devices">
        {[...byAccount].map(([userId, list]) => {
          const person = personName(list[0]!);
          return (
            <section key={userId} className="card console-card" aria-label={`Devices of ${person}`}>
              <h3>{person}</h3>
              <ul className="device-list">
                {list.map((s) => (
                  <SignedInDevice
                    key={s.id}
                    session={s}
                    person={person}
                    signingOut={signOut.isPending}
                    onSignOut={() => signOut.mutate(s.id)}
                  />
                ))}
              </ul>
            </section>
          );
        })}
      </div>
    </section>
  );
}

/** One signed-in device of any account: named (and renamed) as the family knows it, with when it was last used. */
function SignedInDevice({
  session: s,
  person,
  signingOut,
  onSignOut,
}: {
  session: AdminSession;
  person: string;
  signingOut: boolean;
  onSignOut: () => void;
}) {
  const queryClient = useQueryClient();
  const [renaming, setRenaming] = useState(false);
  const rename = useMutation({
    mutationFn: (device_name: string) => data(api.PATCH('/admin/sessions/{id}', { params: { path: { id: s.id } }, body: { device_name } })),
    onSuccess: () => setRenaming(false),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: consoleKeys.sessions }),
  });
  const name = deviceLabel(s);
  if (renaming) {
    return (
      <li className="device-row">
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
      </li>
    );
  }
  return (
    <li className="device-row">
      <div>
        <strong>{name}</strong>
        {s.current && <span className="tag">This device</span>}
        <div className="muted">
          {s.current ? 'In use now' : `Used ${ago(s.last_seen_at)}`}
          {s.ip ? ` · from ${s.ip}` : ''}
        </div>
      </div>
      <div className="row">
        <Button onClick={() => setRenaming(true)} aria-label={`Rename ${name} of ${person}`}>
          Rename
        </Button>
        {!s.current && (
          <Button onClick={onSignOut} disabled={signingOut} aria-label={`Sign out ${name} of ${person}`}>
            Sign out
          </Button>
        )}
      </div>
    </li>
  );
}
