import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { events } from '../../api/events.ts';
import { albumKeys } from './queries.ts';

/** Gathers a burst (Mum's twenty photos arriving one by one) into one refresh. */
const SETTLE_MS = 400;

/**
 * Albums appear, change and go live: the server tells everyone in an album when anything
 * about it changes (album.changed: a photo added, taken out, trashed where it lives, its
 * thumbnail made; its name, cover or people) and when it goes for them (album.deleted). What is
 * on screen is fetched again; the rest when it is next shown.
 */
export function useLiveAlbums(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const off = events.on((message) => {
      if (message.type !== 'album.changed' && message.type !== 'album.deleted') return;
      timer ??= setTimeout(() => {
        timer = null;
        void queryClient.invalidateQueries({ queryKey: albumKeys.all });
      }, SETTLE_MS);
    });
    return () => {
      off();
      if (timer) clearTimeout(timer);
    };
  }, [queryClient]);
}
