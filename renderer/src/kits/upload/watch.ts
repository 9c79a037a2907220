import { hashKey } from '@tanstack/react-query';
import { events } from '../../api/events.ts';
import { queryClient } from '../../api/queryClient.ts';
import { statusQuery } from '../../api/queries.ts';
import type { Status } from '../../api/types.ts';

/** The status query's key as the cache knows it: its answers are how held uploads learn there is room. */
const STATUS_HASH = hashKey(statusQuery.queryKey);

/** What the queue does when the device, the server or the page tells it something changed. */
export interface Watcher {
  changed(): void;
  resumeFailed(): void;
  resumeConnection(): void;
  resumeHeld(): void;
  recheckAwake(): void;
}

/** Listens, for the life of the page, to what lets waiting uploads go on. */
export function watchConnection(queue: Watcher): void {
  window.addEventListener('online', () => {
    queue.changed();
    queue.resumeFailed();
    queue.resumeConnection();
  });
  window.addEventListener('offline', () => queue.changed());
  // The server answers its live channel again (the network came back without the device ever
  // saying it was gone, or the server restarted): what waited for it goes on now, not at the
  // next of its retries, up to 30 s later.
  let socket = events.currentStatus();
  events.subscribeStatus(() => {
    const now = events.currentStatus();
    if (now === 'open' && socket !== 'open') queue.resumeConnection();
    socket = now;
  });
  // The server's disk has room again (its event or a status check updated the status): what
  // waited for it goes on, from where the server says it got.
  queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.query.queryHash !== STATUS_HASH) return;
    if ((event.query.state.data as Status | undefined)?.storage === 'ok') queue.resumeHeld();
  });
  // The screen lock is released when the page is hidden; take it again on return.
  document.addEventListener('visibilitychange', () => queue.recheckAwake());
}
