import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { events } from '../../api/events.ts';
import type { Node } from '../../api/types.ts';
import { galleryKeys } from './queries.ts';

/** Gathers a burst of events (twenty photos arriving from another phone) into one refresh. */
const SETTLE_MS = 400;

/** Events about what others share, as a whole: an album, a partner share, a folder shared anew. */
const SHARING_EVENTS = new Set(['album.changed', 'album.deleted', 'partner_share.changed', 'partner_share.deleted', 'share.received']);

/**
 * New photos appear live: an event about one of this account's photos or videos (node.created
 * when its upload completes, node.thumbnail_ready when its picture and capture time are known,
 * a trash or restore, of it or of a folder holding it) refreshes the gallery. So does, for the
 * family timeline only, what others do with what they share: their photos' events (the server
 * sends only those this account may see), access lost to a folder, a change in an album it is in,
 * a partner share started, changed or stopped. Only what is on screen is fetched again: the month
 * counts and the months in view; the others are fetched when they come into view. A photo can
 * change months when its capture time is read, so no single month is enough.
 */
export function useLiveGallery(userId: string): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    let all = false;
    let searchTimer: ReturnType<typeof setTimeout> | null = null;
    // Faces found or named in photos this account sees: a search by name may find more (or fewer)
    // now. Only searches are asked again: the timeline itself is unchanged, and a library being
    // looked at sends this about once a second.
    const refreshSearches = () => {
      searchTimer ??= setTimeout(() => {
        searchTimer = null;
        void queryClient.invalidateQueries({ predicate: (query) => galleryKeys.ofSearch(query.queryKey) });
      }, SETTLE_MS);
    };
    const refresh = (everything: boolean) => {
      all ||= everything;
      timer ??= setTimeout(() => {
        timer = null;
        const scope = all
          ? { queryKey: galleryKeys.all }
          : { predicate: (query: { queryKey: readonly unknown[] }) => galleryKeys.ofFamily(query.queryKey) };
        all = false;
        void queryClient.invalidateQueries(scope);
      }, SETTLE_MS);
    };
    const off = events.on((message) => {
      if (SHARING_EVENTS.has(message.type)) return refresh(false);
      if (message.type === 'photo.faces') return refreshSearches();
      if (!message.type.startsWith('node.')) return;
      const payload = message.payload as { node?: Node; access_lost?: boolean };
      const node = payload.node;
      if (!node) return;
      // Out of reach now (a folder no longer shared): whatever it held leaves the family timeline.
      if (payload.access_lost) return refresh(false);
      // A folder trashed, restored or moved takes the photos inside with it.
      const folderChange = node.type === 'folder' && message.type !== 'node.created' && message.type !== 'node.updated';
      const media = node.type === 'file' && (node.mime_type?.startsWith('image/') || node.mime_type?.startsWith('video/'));
      if (!folderChange && !media) return;
      refresh(node.owner_id === userId);
    });
    return () => {
      off();
      if (timer) clearTimeout(timer);
      if (searchTimer) clearTimeout(searchTimer);
    };
  }, [queryClient, userId]);
}
