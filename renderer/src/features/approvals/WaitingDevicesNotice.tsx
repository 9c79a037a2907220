import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { Button } from '../../ui/Button.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { usePendingDevices } from './queries.ts';
import './approvals.css';

type Waiting = NonNullable<ReturnType<typeof usePendingDevices>['data']>[number];

/**
 * For the owner, on every page but Devices itself: a phone waiting for approval is said at
 * once, with a way to it, as the tray does at the PC. "Not now" hides the ones seen; a new
 * request brings the notice back.
 */
export function WaitingDevicesNotice() {
  const { pathname } = useLocation();
  const pending = usePendingDevices();
  const [seen, setSeen] = useState<ReadonlySet<string>>(new Set());
  const waiting = pending.data ?? [];
  const unseen = waiting.filter((d) => !seen.has(d.id));
  if (unseen.length === 0 || pathname.startsWith('/console/devices')) return null;
  const first = waiting[0]!;
  return (
    <section className="waiting-notice" aria-labelledby="waiting-notice-title">
      <Icon name="phone" />
      <div className="waiting-notice-text">
        <h2 id="waiting-notice-title">
          {waiting.length === 1 ? `A new ${kindOf(first)} is waiting for your OK` : `${waiting.length} new devices are waiting for your OK`}
        </h2>
        <p className="muted">
          {waiting.length === 1
            ? `${first.device_name ?? 'A device'} wants to open ${first.display_name || first.username}'s account.`
            : 'Check each one’s code with the person holding it before you let it in.'}
        </p>
      </div>
      <div className="row">
        <Link className="btn btn-primary" to="/console/devices">
          {waiting.length === 1 ? 'See the request' : 'See the requests'}
        </Link>
        <Button variant="quiet" onClick={() => setSeen(new Set(waiting.map((d) => d.id)))}>
          Not now
        </Button>
      </div>
    </section>
  );
}

/** "phone" for what a phone's browser says it runs on, "computer" for a desktop system. */
function kindOf(device: Waiting): string {
  const platform = (device.platform ?? '').toLowerCase();
  if (platform === 'android' || platform === 'ios') return 'phone';
  if (['windows', 'macos', 'linux'].includes(platform)) return 'computer';
  return 'device';
}
