import { pushServiceAllows } from '../../config-values.ts';
import type { Notification } from '../../contract/notifications-responses.ts';
import type { PushSubscriptionView } from '../../contract/notifications-responses.ts';
import { AppError } from '../../app-error.ts';
import type { PushSubscriptionRow } from '../../store/database/notifications.repo.ts';
import type { Actor, ServiceDeps } from '../common/context.ts';
import { newId } from '../common/secrets.ts';
import { deliver, newVapidKeys, type VapidKeys } from './push-delivery.ts';

const VAPID_KEY = 'vapid_keys';

export interface SubscriptionInput {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/**
 * Web Push: the server's VAPID keys (made on first need, kept in the database; the private one
 * never leaves the server), the browsers that said yes (one subscription per device, ending
 * with its session), and sending each new notification to them. Nothing is sent to a person
 * who never subscribed.
 */
export class PushService {
  private keys: VapidKeys | null = null;
  private readonly sending = new Set<Promise<unknown>>();

  constructor(private readonly deps: ServiceDeps) {}

  publicKey(): { public_key: string } {
    return { public_key: this.vapid().publicKey };
  }

  subscribe(actor: Actor, input: SubscriptionInput): PushSubscriptionView {
    if (!pushServiceAllows(this.deps.config.pushServices, input.endpoint)) {
      throw new AppError('push_endpoint_refused', undefined, { field: 'endpoint' });
    }
    checkKey(input.keys.p256dh, 65, 'keys.p256dh');
    checkKey(input.keys.auth, 16, 'keys.auth');
    const row = this.deps.store.notifications.subscribe({
      id: newId(),
      user_id: actor.userId,
      session_id: actor.sessionId,
      endpoint: input.endpoint,
      p256dh: input.keys.p256dh,
      auth: input.keys.auth,
      created_at: this.deps.now(),
    });
    return toView(row, actor);
  }

  list(actor: Actor): PushSubscriptionView[] {
    return this.deps.store.notifications.subscriptionsOf(actor.userId).map((row) => toView(row, actor));
  }

  unsubscribe(actor: Actor, id: string): void {
    if (!this.deps.store.notifications.unsubscribe(id, actor.userId)) throw new AppError('not_found');
  }

  /** Sends a new notification to each signed-in device of the account that subscribed (of `devices`, when named). */
  send(userId: string, notification: Notification, devices?: readonly string[]): void {
    const subscriptions = this.deps.store.notifications
      .deliverable(userId)
      .filter((subscription) => devices === undefined || devices.includes(subscription.session_id));
    if (subscriptions.length === 0) return;
    // What a lock screen shows: the words and where to go, nothing the link does not already say.
    const payload = JSON.stringify({
      id: notification.id,
      kind: notification.kind,
      title: notification.title,
      body: notification.body,
      link: notification.link,
    });
    for (const subscription of subscriptions) this.track(this.sendOne(subscription, payload));
  }

  /** Resolves once every message under way has been answered or given up on (tests, and a stopping server). */
  async idle(): Promise<void> {
    while (this.sending.size > 0) await Promise.allSettled([...this.sending]);
  }

  private async sendOne(subscription: PushSubscriptionRow, payload: string): Promise<void> {
    const { config, log, store } = this.deps;
    try {
      const outcome = await deliver(subscription, payload, this.vapid(), config.pushServices, config.pushTimeoutMs);
      if (outcome === 'gone') store.notifications.unsubscribe(subscription.id, null);
      else if (outcome !== 'sent')
        log.warn('a push notification was not delivered', { outcome, service: serviceOf(subscription.endpoint) });
    } catch (caught) {
      log.warn('a push notification could not be sent', { error: String(caught), service: serviceOf(subscription.endpoint) });
    }
  }

  private track(promise: Promise<unknown>): void {
    this.sending.add(promise);
    void promise.finally(() => this.sending.delete(promise));
  }

  private vapid(): VapidKeys {
    this.keys ??= this.deps.store.meta.get<VapidKeys>(VAPID_KEY) ?? this.deps.store.meta.getOrInit(VAPID_KEY, newVapidKeys());
    return this.keys;
  }
}

function checkKey(value: string, bytes: number, field: string): void {
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(value) || Buffer.from(value, 'base64url').length !== bytes) {
    throw new AppError('invalid_input', `${field} is the browser's key: ${bytes} bytes in base64url.`, { field });
  }
}

/** The push service's host alone: the endpoint's path is the browser's address, said to no one. */
function serviceOf(endpoint: string): string {
  try {
    return new URL(endpoint).host;
  } catch {
    return '';
  }
}

function toView(row: PushSubscriptionRow, actor: Actor): PushSubscriptionView {
  return { id: row.id, service: serviceOf(row.endpoint), this_device: row.session_id === actor.sessionId, created_at: row.created_at };
}
