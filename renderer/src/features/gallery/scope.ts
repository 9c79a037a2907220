import { useCallback, useSyncExternalStore } from 'react';
import { session } from '../../api/session.ts';

/**
 * Whose photos Photos shows: `mine`, the account's own; `family` (Everyone's), with what others
 * share with it (folders, albums, partners). The choice is this device's, per account: a phone
 * may show the whole family while the computer shows only one's own, and a reload or the next
 * sign-in keeps it. Everyone's at first: what others shared is why a family opens Photos.
 */
export type TimelineScope = 'mine' | 'family';

const PREFIX = 'hearth.photos.scope.';
const listeners = new Set<() => void>();
/** Where a browser refuses storage (some private modes), the choice lasts until the page goes. */
let unstored: TimelineScope | null = null;

function keyOfSignedIn(): string | null {
  const state = session.current();
  return state.kind === 'signed-in' ? `${PREFIX}${state.user.id}` : null;
}

/** The choice in force for the account signed in on this device. */
export function timelineScope(): TimelineScope {
  if (unstored !== null) return unstored;
  const key = keyOfSignedIn();
  try {
    return key !== null && localStorage.getItem(key) === 'mine' ? 'mine' : 'family';
  } catch {
    return 'family';
  }
}

export function chooseTimelineScope(scope: TimelineScope): void {
  const key = keyOfSignedIn();
  if (key === null) return;
  try {
    localStorage.setItem(key, scope);
  } catch {
    unstored = scope;
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab of this browser chose: this one follows.
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key.startsWith(PREFIX)) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The device's choice, kept current, and the way to change it. */
export function useTimelineScope(): [TimelineScope, (scope: TimelineScope) => void] {
  const scope = useSyncExternalStore(subscribe, timelineScope);
  return [scope, useCallback((next: TimelineScope) => chooseTimelineScope(next), [])];
}
