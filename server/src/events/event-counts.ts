import crypto from 'node:crypto';
import type { Audience } from './bus.ts';

/**
 * How many events each account has been sent since this server started, as `<start>.<count>`
 * (`<start>`: random, new at each start, so a count from before a restart never compares).
 *
 * A page loads its views over HTTP and opens its socket a moment later: an event sent in
 * between reaches neither. Each answer to a GET carries the count as the request began, and the
 * socket's first message the count as it opened; a page holding an answer counted lower knows it
 * missed something and asks again, and one that missed nothing sends no extra request. Each event
 * on such a socket carries the count too: a gap says the socket dropped one (a page that fell
 * behind), which the page would otherwise never know.
 */
export class EventCounts {
  private readonly start = crypto.randomBytes(4).toString('hex');
  private toEveryone = 0;
  private readonly perAccount = new Map<string, number>();

  of(userId: string): string {
    return `${this.start}.${this.toEveryone + (this.perAccount.get(userId) ?? 0)}`;
  }

  /** Called by the bus as it publishes, before any listener hears the event (the gateway sends each with its count). */
  count(audience: Audience): void {
    if ('everyone' in audience) {
      this.toEveryone += 1;
      return;
    }
    // An account named twice in one audience is sent the event once.
    for (const userId of new Set(audience.users)) this.perAccount.set(userId, (this.perAccount.get(userId) ?? 0) + 1);
  }
}
