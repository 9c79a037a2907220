import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { events } from '../../api/events.ts';
import type { Node } from '../../api/types.ts';
import { galleryKeys } from './queries.ts';

/** Gathers a burst of events (twenty photos arriving from another phone) into one refresh. */
const SETTLE_MS = 400;

/**
 * New photos appear live: an event about one of this account's photos or videos (node.created
 * when its upload completes, node.thumbnail_ready when its picture and capture time are known,
 * a trash or restore, of it or of a folder holding it) refreshes the gallery. Only what is on screen is fetched again: the month
 * counts and the months in view; the others are fetched when they come into view. A photo can
 * change months when its capture time is read, so no single month is enough.
 */
export function useLiveGallery(userId: string): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const off = events.on((message) => {
      if (!message.type.startsWith('node.')) return;
      const node = (message.payload as { node?: Node }).node;
      if (!node || node.owner_id !== userId) return;
      // A folder trashed or restored takes the photos inside with it.
      const folderChange = node.type === 'folder' && (message.type === 'node.deleted' || message.type === 'node.restored');
      const media = node.type === 'file' && (node.mime_type?.startsWith('image/') || node.mime_type?.startsWith('video/'));
      if (!folderChange && !media) return;
      timer ??= setTimeout(() => {
        timer = null;
        void queryClient.invalidateQueries({ queryKey: galleryKeys.all });
      }, SETTLE_MS);
    });
    return () => {
      off();
      if (timer) clearTimeout(timer);
    };
  }, [queryClient, userId]);
}
