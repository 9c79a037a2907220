import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { api } from '../../api/client.ts';
import { askNotificationsAgain } from './queries.ts';

/** Put beside a notification's link by the service worker (service-worker/notification-target.ts). */
const PARAM = 'notification';

/**
 * A tap on a pushed notification opens the app at its place with its id in the address: the
 * service worker holds no sign-in, so the app marks it read here, then takes the id out of the
 * address (a reload or a shared address does not carry it on). Renders nothing.
 */
export function OpenedFromNotification() {
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const handled = useRef<string | null>(null);
  const id = new URLSearchParams(location.search).get(PARAM);
  useEffect(() => {
    // Cleared once the id has left the address: the same notification tapped again (told again
    // after a burst of photos) is marked read again.
    if (id === null) handled.current = null;
    if (id === null || handled.current === id) return;
    handled.current = id;
    const rest = new URLSearchParams(location.search);
    rest.delete(PARAM);
    const search = rest.toString();
    // Someone else's id, or one gone, changes nothing: the server reads only the caller's own.
    void api
      .POST('/notifications/read', { body: { ids: [id] } })
      .catch(() => undefined)
      .finally(() => {
        void askNotificationsAgain(queryClient);
        void navigate(
          { pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash },
          { replace: true, state: location.state },
        );
      });
  }, [id, location, navigate, queryClient]);
  return null;
}
