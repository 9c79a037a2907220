import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import { useIsPhone } from '../../ui/useIsPhone.ts';
import { notificationKeys, useNotificationSettings } from './queries.ts';
import { pushIsOn, pushSupport, turnPushOff, turnPushOn } from './push.ts';
import './notifications.css';

type Kinds = NonNullable<ReturnType<typeof useNotificationSettings>['data']>['kinds'];
type Kind = keyof Kinds;

const KINDS: { kind: Kind; label: string; ownersOnly?: true }[] = [
  { kind: 'shared_with_you', label: 'Someone shares something with me' },
  { kind: 'album_new_photos', label: 'New photos in an album I am in' },
  { kind: 'phone_backup_stale', label: 'A phone of mine has not backed up for a week' },
  { kind: 'device_waiting', label: 'A phone waits for my yes to sign in', ownersOnly: true },
  { kind: 'backup_failed', label: 'A backup did not finish', ownersOnly: true },
  { kind: 'backup_stale', label: 'No backup for 2 days', ownersOnly: true },
];

/** Why this device cannot say yes, in words for it ("phone" or "computer"). */
const WHY_NOT: Record<Exclude<ReturnType<typeof pushSupport>, 'ready'>, (device: string) => string> = {
  insecure: (device) =>
    `Notifications on this ${device} need Hearth’s secure address (one starting with https://). Open Hearth that way, or set up the secure address on this ${device}, then come back here.`,
  'ios-home-screen': () =>
    'On an iPhone or iPad (iOS 16.4 or later), add Hearth to the Home Screen first: tap Share, then “Add to Home Screen”. Open Hearth from there and come back here.',
  unsupported: () => 'This browser cannot show notifications from Hearth. You still see them under the bell.',
};

/** The Account page's Notifications: what this person is told, and whether this device shows it too. */
export function NotificationSettingsSection({ isOwner }: { isOwner: boolean }) {
  const queryClient = useQueryClient();
  const settings = useNotificationSettings();
  const save = useMutation({
    mutationFn: (kinds: Partial<Kinds>) => data(api.PUT('/me/notification-settings', { body: { kinds } })),
    onSuccess: (saved) => queryClient.setQueryData(notificationKeys.settings, saved),
  });
  return (
    <section className="card section" aria-labelledby="notifications-title">
      <h2 id="notifications-title">Notifications</h2>
      <p className="muted">Tell me when:</p>
      {settings.isPending && <Spinner label="Loading notification settings" />}
      {settings.isError && <Notice tone="error">{settings.error.message}</Notice>}
      {settings.data && (
        <ul className="notification-kinds">
          {KINDS.filter((k) => isOwner || !k.ownersOnly).map(({ kind, label }) => (
            <li key={kind}>
              <label className="switch-row">
                <span>{label}</span>
                <input
                  type="checkbox"
                  role="switch"
                  checked={save.isPending && save.variables[kind] !== undefined ? save.variables[kind] : settings.data.kinds[kind]}
                  disabled={save.isPending}
                  onChange={(event) => save.mutate({ [kind]: event.target.checked })}
                />
              </label>
            </li>
          ))}
        </ul>
      )}
      {save.isError && <Notice tone="error">{save.error.message}</Notice>}
      <ThisPhone />
    </section>
  );
}

/**
 * "Notify me on this phone" ("this computer" on one: the person knows which they hold): the
 * browser is asked for permission only after this tap.
 */
function ThisPhone() {
  const device = useIsPhone() ? 'phone' : 'computer';
  const support = pushSupport();
  const on = useQuery({ queryKey: [...notificationKeys.all, 'this-device'], queryFn: pushIsOn, enabled: support === 'ready' });
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: (want: boolean) => (want ? turnPushOn() : turnPushOff()),
    onSettled: () => queryClient.invalidateQueries({ queryKey: [...notificationKeys.all, 'this-device'] }),
  });
  if (support !== 'ready') return <p className="muted">{WHY_NOT[support](device)}</p>;
  return (
    <div className="this-phone">
      {on.data ? (
        <>
          <p>This {device} shows Hearth’s notifications, even when Hearth is closed.</p>
          <Button disabled={change.isPending} onClick={() => change.mutate(false)}>
            Stop notifications on this {device}
          </Button>
        </>
      ) : (
        <>
          <p className="muted">Hearth can also show these on this {device} when Hearth is closed. Your browser will ask you first.</p>
          <Button variant="primary" icon="bell" disabled={change.isPending} onClick={() => change.mutate(true)}>
            Notify me on this {device}
          </Button>
        </>
      )}
      {change.isError && <Notice tone="error">{change.error.message}</Notice>}
    </div>
  );
}
