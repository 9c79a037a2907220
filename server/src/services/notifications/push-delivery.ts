import http from 'node:http';
import https from 'node:https';
import webpush from 'web-push';
import { pushServiceAllows } from '../../config-values.ts';
import type { PushSubscriptionRow } from '../../store/database/notifications.repo.ts';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/** What a push service answered: `gone` (404, 410) ends the subscription. */
export type Delivery = 'sent' | 'gone' | 'refused' | 'failed';

/** Anything longer than this from a push service is not read (its answer's status is all that matters). */
const MAX_ANSWER_BYTES = 16 * 1024;
/** The push service keeps a message this long for a phone that is off, then drops it. */
const TTL_SECONDS = 24 * 60 * 60;
/** Who sends, for a push service with a question: no address of the family's own is disclosed. */
export const VAPID_SUBJECT = 'mailto:hearth@hearth.invalid';

/**
 * Sends one encrypted message to one subscription. The endpoint is outside input (a browser
 * chose it, a person could post any URL), so it is contacted only when it is on one of the push
 * services the server trusts (PUSH_SERVICES), with a time limit, and a redirect is an answer,
 * never followed. The payload is encrypted for the browser alone (RFC 8291, aes128gcm) and
 * signed with the server's VAPID key (RFC 8292), both by `web-push`.
 */
export function deliver(
  subscription: PushSubscriptionRow,
  payload: string,
  vapid: VapidKeys,
  services: readonly string[],
  timeoutMs: number,
): Promise<Delivery> {
  if (!pushServiceAllows(services, subscription.endpoint)) return Promise.resolve('refused');
  const details = webpush.generateRequestDetails(
    { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
    payload,
    { vapidDetails: { subject: VAPID_SUBJECT, ...vapid }, TTL: TTL_SECONDS, contentEncoding: 'aes128gcm', urgency: 'normal' },
  );
  const url = new URL(details.endpoint);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const request = client.request(
      url,
      { method: details.method, headers: { ...details.headers, 'Content-Length': details.body.length }, timeout: timeoutMs, agent: false },
      (response) => {
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) response.destroy();
        });
        response.on('error', () => {});
        response.resume();
        const status = response.statusCode ?? 0;
        resolve(status === 404 || status === 410 ? 'gone' : status >= 200 && status < 300 ? 'sent' : 'failed');
      },
    );
    request.on('timeout', () => request.destroy(new Error('push service timed out')));
    request.on('error', () => resolve('failed'));
    request.end(details.body);
  });
}

export function newVapidKeys(): VapidKeys {
  return webpush.generateVAPIDKeys();
}
