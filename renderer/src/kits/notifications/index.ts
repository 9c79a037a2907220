import { lazy } from 'react';

/** Notifications: the bell (the frame's), the list (a page of its own, loaded when opened), and the Account page's section. */
export { NotificationBell } from './NotificationBell.tsx';
export { NotificationSettingsSection } from './NotificationSettingsSection.tsx';
export const NotificationsPage = lazy(() => import('./NotificationsPage.tsx').then((m) => ({ default: m.NotificationsPage })));
