import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { events } from '../../api/events.ts';
import { pendingDevicesQuery } from '../../api/queries.ts';

/** The waiting list (the app's, api/queries.ts): the badge on Manage and this notice read it on every page. */
export function usePendingDevices(options: { enabled?: boolean } = {}) {
  return useQuery({ ...pendingDevicesQuery, enabled: options.enabled ?? true });
}

/** A phone asking to connect, let in or refused anywhere: the waiting list is read again at once. */
export function useLivePendingDevices(enabled: boolean): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    return events.on((message) => {
      if (message.type === 'device.pending' || message.type === 'device.approved' || message.type === 'device.denied') {
        void queryClient.invalidateQueries({ queryKey: pendingDevicesQuery.queryKey });
      }
    });
  }, [enabled, queryClient]);
}
