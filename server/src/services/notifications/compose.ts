import type { ServiceDeps } from '../common/context.ts';
import { NotificationCauses } from './causes.ts';
import { NotificationService } from './notifications.ts';
import { PushService } from './push.ts';

export interface NotificationServices {
  /** Each account's notifications (the bell), and its choice of kinds. */
  notifications: NotificationService;
  /** What happens in the family, heard from the services' events, made into notifications; the stale-backup check. */
  notificationCauses: NotificationCauses;
  /** Web Push to the devices that said yes. */
  push: PushService;
}

/** Telling the family: built last, on the events every other domain publishes. */
export function notificationServices(deps: ServiceDeps): NotificationServices {
  const notifications = new NotificationService(deps);
  const push = new PushService(deps);
  notifications.onTold((userId, notification, devices) => push.send(userId, notification, devices));
  return { notifications, notificationCauses: new NotificationCauses(deps, notifications), push };
}
