import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { events } from '../api/events.ts';
import { statusQuery } from '../api/queries.ts';

function useOnline(): boolean {
  return useSyncExternalStore(
    (listener) => {
      window.addEventListener('online', listener);
      window.addEventListener('offline', listener);
      return () => {
        window.removeEventListener('online', listener);
        window.removeEventListener('offline', listener);
      };
    },
    () => navigator.onLine,
  );
}

/**
 * A lost connection is said plainly at the top, and the app keeps what it shows: the device is
 * offline, or the live channel to the server has been down for a few seconds.
 */
export function ConnectionBanner() {
  const online = useOnline();
  const socket = useSyncExternalStore(events.subscribeStatus, events.currentStatus);
  const status = useQuery(statusQuery);
  const [lost, setLost] = useState(false);
  useEffect(() => {
    if (socket === 'open') return;
    // A reconnect after a blip is not worth a banner.
    const timer = setTimeout(() => setLost(true), 4_000);
    return () => clearTimeout(timer);
  }, [socket]);
  if (online && (!lost || socket === 'open')) return null;
  const name = status.data?.name ?? 'the Hearth server';
  return (
    <div className="connection-banner" role="status">
      {online ? `Can't reach ${name}. Trying again…` : `You're offline. Can't reach ${name}; it will reconnect by itself.`}
    </div>
  );
}
