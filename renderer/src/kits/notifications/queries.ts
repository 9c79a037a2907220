import { useQuery, useQueryClient } from '@tanstack/react-query';
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
 * The bell and the list follow what the server tells this account (a new one, some read on
 * another device). One told between the list's first answer and the socket's first open would be
 * lost (the bell stayed at none for a share made right after signing in): a list that answered
 * before the open is asked again then, once. (A reconnect reloads every view: LiveUpdates.)
 */
export function useLiveNotifications(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const offEvent = events.on((message) => {
      if (message.type === 'notification.created' || message.type === 'notification.read') {
        void queryClient.invalidateQueries({ queryKey: notificationKeys.list });
      }
    });
    const offFirstOpen = events.onFirstOpen((openedAt) => {
      const answeredAt = queryClient.getQueryState(notificationKeys.list)?.dataUpdatedAt ?? 0;
      if (answeredAt > 0 && answeredAt < openedAt) void queryClient.invalidateQueries({ queryKey: notificationKeys.list });
    });
    return () => {
      offEvent();
      offFirstOpen();
    };
  }, [queryClient]);
}
