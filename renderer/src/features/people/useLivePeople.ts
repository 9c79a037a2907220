import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { events } from '../../api/events.ts';
import { peopleKeys } from './queries.ts';

/** Gathers a burst (a library's faces found, about one photo a second) into one refresh a second at most. */
const SETTLE_MS = 1_000;

/**
 * People follows the server instead of asking every few seconds: the server tells the account
 * (and only it) when its people change (people.changed: faces found in one of its photos, someone
 * named, merged, hidden or a face moved out, and once more when face finding is done, so "to go"
 * reaches nothing). After a reconnect, what was missed is fetched again.
 */
export function useLivePeople(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const refresh = () => {
      timer ??= setTimeout(() => {
        timer = null;
        void queryClient.invalidateQueries({ queryKey: peopleKeys.all });
      }, SETTLE_MS);
    };
    const off = events.on((message) => {
      if (message.type === 'people.changed') refresh();
    });
    const offReconnect = events.onReconnect(refresh);
    return () => {
      off();
      offReconnect();
      if (timer) clearTimeout(timer);
    };
  }, [queryClient]);
}
