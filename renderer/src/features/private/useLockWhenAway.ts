import { useEffect, useRef } from 'react';

/** How long the tab may stay hidden before Private locks itself (the phone put down, another app). */
const AWAY_MS = 60_000;

/** Locks Private when the page comes back after being hidden for a while (`lock` kept the same from render to render). */
export function useLockWhenAway(open: boolean, lock: () => void): void {
  const hiddenAt = useRef<number | null>(null);
  useEffect(() => {
    if (!open) return;
    const changed = () => {
      if (document.visibilityState === 'hidden') {
        hiddenAt.current = Date.now();
        return;
      }
      if (hiddenAt.current !== null && Date.now() - hiddenAt.current >= AWAY_MS) lock();
      hiddenAt.current = null;
    };
    document.addEventListener('visibilitychange', changed);
    return () => document.removeEventListener('visibilitychange', changed);
  }, [open, lock]);
}
