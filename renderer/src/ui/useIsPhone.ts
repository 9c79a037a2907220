import { useSyncExternalStore } from 'react';

/** A phone (or a tablet held like one): a touch screen without hover, or a narrow screen. */
const PHONE_QUERY = '(max-width: 640px), (hover: none) and (pointer: coarse)';

function subscribe(listener: () => void): () => void {
  const query = window.matchMedia(PHONE_QUERY);
  query.addEventListener('change', listener);
  return () => query.removeEventListener('change', listener);
}

/**
 * Whether this device is a phone, as the app says it to people ("Back up this phone", "Notify
 * me on this phone") and picks the main button: one test, so two places never disagree.
 */
export function useIsPhone(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(PHONE_QUERY).matches);
}
