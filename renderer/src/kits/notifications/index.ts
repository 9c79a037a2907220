import { lazy } from 'react';

/**
 * Notifications: the bell (the frame's, on the first screen), the read mark of a tapped push, and, loaded when opened, the
 * list (a page of its own) and the Account page's section (its switches and Web Push).
 */
export { NotificationBell } from './NotificationBell.tsx';
export { OpenedFromNotification } from './OpenedFromNotification.tsx';
export const NotificationsPage = lazy(() => import('./NotificationsPage.tsx').then((m) => ({ default: m.NotificationsPage })));
export const NotificationSettingsSection = lazy(() =>
  import('./NotificationSettingsSection.tsx').then((m) => ({ default: m.NotificationSettingsSection })),
);
