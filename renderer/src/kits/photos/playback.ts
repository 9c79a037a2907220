import { useMemo } from 'react';
import { api, data } from '../../api/client.ts';
import { events } from '../../api/events.ts';
import type { PlaybackSource } from '../viewer/index.ts';

/** The viewer's video questions are asked apart from the gallery's queries (galleryKeys): they change apart from them. */
const SCOPE = 'app';

function subscribe(ask: (nodeId: string | null) => void): () => void {
  return events.on((message) => {
    // A copy is ready (or will not be): that video is asked about again.
    if (message.type === 'node.playback_changed') ask((message.payload as { node_id: string }).node_id);
    // Copies switched on or off: a video that said it cannot play may now be prepared, and the reverse.
    if (message.type === 'server.settings_changed') ask(null);
  });
}

/**
 * The signed-in app's answers about its videos (GET /nodes/{id}/playback), told by the event
 * channel when a copy awaited is ready. `copyUrl` gives the copy's URL (its link is made with
 * the original's, by the same token).
 */
export function useAppPlaybackSource(copyUrl: (id: string) => string | null): PlaybackSource {
  return useMemo(
    () => ({
      scope: SCOPE,
      facts: (id: string) => data(api.GET('/nodes/{id}/playback', { params: { path: { id } } })),
      copyUrl,
      subscribe,
    }),
    [copyUrl],
  );
}
