import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { api, data } from '../../api/client.ts';
import { events } from '../../api/events.ts';
import { browserPlays, chooseVideo, devicePlays, type PlaybackFacts, type VideoPlayback } from '../viewer/index.ts';

interface VideoItem {
  id: string;
  version: number;
}

/** Not under galleryKeys: the viewer's run of items follows the gallery's own queries, and these change apart from them. */
const playbackKeys = {
  all: ['playback'] as const,
  video: (id: string, version: number) => ['playback', id, version] as const,
};

/** While a copy is under way, the viewer asks again this often in case the event was missed (the socket was down). */
const RECHECK_MS = 20_000;

/** The browser's answers, by what was asked: the same type and size is asked once per page. */
const devices = new Map<string, boolean>();

/**
 * What to play for the videos near the one on screen: the original where this browser plays
 * it, else the playback copy the server makes (GET /nodes/{id}/playback), with node.playback_changed
 * telling when a copy awaited is ready. `copyUrl` gives the copy's URL (its link is made with
 * the original's, by the same token).
 */
export function useVideoPlayback(videos: readonly VideoItem[], copyUrl: (id: string) => string | null): (item: VideoItem) => VideoPlayback {
  const queryClient = useQueryClient();
  const [answered, setAnswered] = useState(0);
  const results = useQueries({
    queries: videos.map((video) => ({
      queryKey: playbackKeys.video(video.id, video.version),
      queryFn: () => data(api.GET('/nodes/{id}/playback', { params: { path: { id: video.id } } })),
      staleTime: 60_000,
      refetchInterval: (query: { state: { data?: PlaybackFacts | undefined } }) =>
        query.state.data && ['waiting', 'making'].includes(query.state.data.copy.state) ? RECHECK_MS : false,
    })),
  });

  useEffect(
    () =>
      events.on((message) => {
        if (message.type === 'node.playback_changed') {
          const { node_id } = message.payload as { node_id: string };
          void queryClient.invalidateQueries({ queryKey: [...playbackKeys.all, node_id] });
        }
        // Copies switched on or off: a video that said it cannot play may now be prepared, and the reverse.
        if (message.type === 'server.settings_changed') void queryClient.invalidateQueries({ queryKey: playbackKeys.all });
      }),
    [queryClient],
  );

  const facts = new Map(videos.map((video, i) => [video.id, results[i]] as const));
  return useCallback(
    (item: VideoItem): VideoPlayback => {
      const result = facts.get(item.id);
      // Not asked (not near), or the server could not say: the original, as before copies existed.
      if (!result || result.isError) return { deciding: false, preferCopy: false, copy: null };
      if (!result.data) return { deciding: true, preferCopy: false, copy: null };
      const info = result.data as PlaybackFacts;
      const plays = browserPlays(info.original.type, (type) => document.createElement('video').canPlayType(type));
      let device = true;
      if (plays) {
        const key = JSON.stringify(info.original);
        const known = devices.get(key);
        if (known === undefined) {
          void devicePlays(info.original, navigator.mediaCapabilities).then((answer) => {
            devices.set(key, answer);
            setAnswered((n) => n + 1);
          });
          return { deciding: true, preferCopy: false, copy: null };
        }
        device = known;
      }
      return chooseVideo(info, plays && device, copyUrl(item.id));
    },
    // `results` is a new array whenever any answer changes, `copyUrl` whenever a link is made,
    // `answered` whenever the device answers: each makes a new function, so the slides draw again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [results, copyUrl, answered],
  );
}
