import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, data } from '../../api/client.ts';
import { events } from '../../api/events.ts';

export const notificationKeys = {
  all: ['notifications'] as const,
  list: ['notifications', 'list'] as const,
  settings: ['notifications', 'settings'] as const,
};

/** The newest notifications and how many are unread: one page (a family is told a few things a day). */
export function useNotifications(enabled = true) {
  return useQuery({
    queryKey: notificationKeys.list,
    queryFn: () => data(api.GET('/notifications', { params: { query: { limit: 100 } } })),
    enabled,
  });
}

export function useNotificationSettings() {
  return useQuery({ queryKey: notificationKeys.settings, queryFn: () => data(api.GET('/me/notification-settings')) });
}

/**
 * The list asked again, whatever it is doing: a first load still under way is dropped and sent
 * anew. (Invalidating alone joins a first load in flight, whose answer may predate what just
 * changed: a tapped notification's bell stayed at 1 unread, 2 runs in 16.)
 */
export async function askNotificationsAgain(queryClient: QueryClient): Promise<void> {
  await queryClient.cancelQueries({ queryKey: notificationKeys.list });
  await queryClient.invalidateQueries({ queryKey: notificationKeys.list });
}

/**
 * The bell and the list follow what the server tells this account (a new one, some read on
 * another device). One told between the list's answer and the socket's first open, and a
 * reconnect, reload every view (LiveUpdates).
 */
export function useLiveNotifications(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const offEvent = events.on((message) => {
      if (message.type === 'notification.created' || message.type === 'notification.read') {
        void queryClient.invalidateQueries({ queryKey: notificationKeys.list });
      }
    });
    return offEvent;
  }, [queryClient]);
}
