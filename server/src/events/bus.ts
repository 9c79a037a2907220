import type { EventMessage, EventPayloads, EventType } from '../contract/events.ts';
import { EventCounts } from './event-counts.ts';

/** Who may receive an event: named accounts, or every signed-in account. */
export type Audience = { users: readonly string[] } | { everyone: true };

export interface BusEvent<T extends EventType = EventType> {
  message: EventMessage<T>;
  audience: Audience;
}

export type BusListener = (event: BusEvent) => void;

/**
 * Services publish here and never know who listens; the WebSocket gateway (and later the
 * media worker) subscribe. Dispatch is synchronous and a failing listener cannot break the
 * publisher or the other listeners.
 *
 * An event a listener publishes (an album told of a change to a photo it holds) waits until every
 * listener has heard the one it answers: all of them hear events in the order they were
 * published, and each is counted just before it is heard, so the count the gateway sends with
 * it is its own. (Heard at once, the album's event reached the socket before the photo's, both
 * with the later count, and a page read the jump as a dropped message.)
 */
export class EventBus {
  private readonly listeners = new Set<BusListener>();
  /** Each account's count of events, moved before any listener hears one. */
  readonly counts = new EventCounts();
  private readonly waiting: BusEvent[] = [];
  private dispatching = false;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly onListenerError: (error: unknown) => void = () => {},
  ) {}

  publish<T extends EventType>(type: T, payload: EventPayloads[T], audience: Audience): void {
    this.waiting.push({ message: { type, at: this.now(), payload }, audience } as BusEvent);
    if (this.dispatching) return;
    this.dispatching = true;
    try {
      for (let event = this.waiting.shift(); event !== undefined; event = this.waiting.shift()) {
        this.counts.count(event.audience);
        for (const listener of this.listeners) {
          try {
            listener(event);
          } catch (error) {
            this.onListenerError(error);
          }
        }
      }
    } finally {
      this.dispatching = false;
    }
  }

  subscribe(listener: BusListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

export function isInAudience(audience: Audience, userId: string): boolean {
  return 'everyone' in audience || audience.users.includes(userId);
}
