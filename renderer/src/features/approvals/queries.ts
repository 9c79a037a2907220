import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, data } from '../../api/client.ts';
import { events } from '../../api/events.ts';

/** The console's key too: the Devices page and the badge on Manage read one answer. */
export const approvalKeys = {
  pending: ['console', 'pending'] as const,
};

export function usePendingDevices(options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: approvalKeys.pending,
    queryFn: async () => (await data(api.GET('/devices/pending'))).items,
    enabled: options.enabled ?? true,
    // Events bring news at once; this only covers a socket that is down.
    refetchInterval: 30_000,
  });
}

/** A phone asking to connect, let in or refused anywhere: the waiting list is read again at once. */
export function useLivePendingDevices(enabled: boolean): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    return events.on((message) => {
      if (message.type === 'device.pending' || message.type === 'device.approved' || message.type === 'device.denied') {
        void queryClient.invalidateQueries({ queryKey: approvalKeys.pending });
      }
    });
  }, [enabled, queryClient]);
}
