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
 */
export class EventBus {
  private readonly listeners = new Set<BusListener>();
  /** Each account's count of events, moved before any listener hears one. */
  readonly counts = new EventCounts();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly onListenerError: (error: unknown) => void = () => {},
  ) {}

  publish<T extends EventType>(type: T, payload: EventPayloads[T], audience: Audience): void {
    const event: BusEvent<T> = { message: { type, at: this.now(), payload }, audience };
    this.counts.count(audience);
    for (const listener of this.listeners) {
      try {
        listener(event as BusEvent);
      } catch (error) {
        this.onListenerError(error);
      }
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
