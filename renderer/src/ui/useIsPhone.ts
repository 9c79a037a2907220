import { useSyncExternalStore } from 'react';

/** A phone (or a tablet held like one): a touch screen without hover, or a narrow screen. */
const PHONE_QUERY = '(max-width: 640px), (hover: none) and (pointer: coarse)';

let phoneQuery: MediaQueryList | null = null;
/** One list for the page: each new one is evaluated afresh, and the answer is read on every render. */
function phone(): MediaQueryList {
  return (phoneQuery ??= window.matchMedia(PHONE_QUERY));
}

function subscribe(listener: () => void): () => void {
  const query = phone();
  query.addEventListener('change', listener);
  return () => query.removeEventListener('change', listener);
}

/**
 * Whether this device is a phone, as the app says it to people ("Back up this phone", "Notify
 * me on this phone") and picks the main button: one test, so two places never disagree.
 */
export function useIsPhone(): boolean {
  return useSyncExternalStore(subscribe, () => phone().matches);
}
