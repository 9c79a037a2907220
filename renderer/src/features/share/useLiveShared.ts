import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect } from 'react';
import { events } from '../../api/events.ts';

/** Gathers a burst (photos added to an album one by one) into one refresh. */
const SETTLE_MS = 400;

/**
 * What reaches this person besides files and folders: the server tells them when they join or
 * leave an album, when it changes (its name, cover, photos), and when a partner starts, changes
 * or stops sharing their photos; only those it concerns hear. A file or folder shared arrives as
 * share.received, which refreshes every node list, this one with them.
 */
const SHARED_EVENTS = new Set(['album.changed', 'album.deleted', 'partner_share.changed', 'partner_share.deleted']);

/** Shared with me is fetched again as soon as something is shared with this person or stops being. */
export function useLiveShared(queryKey: QueryKey): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const off = events.on((message) => {
      if (!SHARED_EVENTS.has(message.type)) return;
      timer ??= setTimeout(() => {
        timer = null;
        void queryClient.invalidateQueries({ queryKey });
      }, SETTLE_MS);
    });
    return () => {
      off();
      if (timer) clearTimeout(timer);
    };
  }, [queryClient, queryKey]);
}
