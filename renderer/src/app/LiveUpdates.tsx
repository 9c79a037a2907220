import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { events } from '../api/events.ts';
import { meQuery, nodeKeys } from '../api/queries.ts';

/**
 * Keeps every open view current: node events refresh the node lists they may touch, and a
 * reconnect refreshes everything, since events sent while the socket was down are lost; so does
 * an answer read before an event the socket was not yet up to carry (events.onMissed).
 */
export function LiveUpdates() {
  const queryClient = useQueryClient();
  useEffect(() => {
    events.start();
    const offEvent = events.on((message) => {
      if (message.type.startsWith('node.') || message.type === 'share.received') {
        void queryClient.invalidateQueries({ queryKey: nodeKeys.all });
      }
      if (message.type === 'quota.updated') void queryClient.invalidateQueries({ queryKey: meQuery.queryKey });
    });
    const offReconnect = events.onReconnect(() => void queryClient.invalidateQueries());
    // A load still under way is dropped and sent anew: invalidating alone joins a first load in
    // flight, whose answer may be the one that missed the event.
    const offMissed = events.onMissed(() => void queryClient.cancelQueries().then(() => queryClient.invalidateQueries()));
    return () => {
      offEvent();
      offReconnect();
      offMissed();
      events.stop();
    };
  }, [queryClient]);
  return null;
}
