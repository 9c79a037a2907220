import { useEffect, useSyncExternalStore } from 'react';

/**
 * "Keep Hearth open until they are sent" is said once on screen. A part of the app that says it
 * in its own words (a phone backup's status) claims it while it does, and the upload panel then
 * leaves it out.
 */
let claims = 0;
const listeners = new Set<() => void>();

function changed(by: number): void {
  claims += by;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Says the sentence here while `saying` is true. */
export function useSaysKeepOpen(saying: boolean): void {
  useEffect(() => {
    if (!saying) return;
    changed(1);
    return () => changed(-1);
  }, [saying]);
}

/** Whether another part of the screen already says it. */
export function useKeepOpenSaidElsewhere(): boolean {
  return useSyncExternalStore(subscribe, () => claims > 0);
}
