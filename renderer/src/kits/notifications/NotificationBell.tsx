import { NavLink } from 'react-router';
import { Icon } from '../../ui/Icon.tsx';
import { useLiveNotifications, useNotifications } from './queries.ts';
import './notifications.css';

/** The bell: its count of unread notifications, live; it opens the list. */
export function NotificationBell() {
  useLiveNotifications();
  const unread = useNotifications().data?.unread_count ?? 0;
  const label = unread === 0 ? 'Notifications' : `Notifications, ${unread} unread`;
  return (
    <NavLink to="/notifications" className="bell" aria-label={label} title={label}>
      <Icon name="bell" />
      {unread > 0 && (
        <span className="bell-count" aria-hidden="true">
          {unread > 99 ? '99+' : unread}
        </span>
      )}
    </NavLink>
  );
}
