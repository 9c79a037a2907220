import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { browserPlays, chooseVideo, devicePlays, type PlaybackFacts } from './playback.ts';
import type { VideoPlayback } from './types.ts';

interface VideoItem {
  id: string;
  version: number;
}

/** Where a page asks about its videos: the app with its session, a link's page with its token. */
export interface PlaybackSource {
  /** Names the page's questions apart (a link's token, the signed-in app). */
  scope: string;
  facts(id: string): Promise<PlaybackFacts>;
  /** The copy's URL, once its link is made. */
  copyUrl(id: string): string | null;
  /** Tells when to ask again: a copy is ready (that node), or copies were switched on or off (null: every video). */
  subscribe?(ask: (nodeId: string | null) => void): () => void;
}

/** While a copy is under way, asked again this often in case no event says so (no socket, or it was down). */
const RECHECK_MS = 20_000;

/** The browser's answers, by what was asked: the same type and size is asked once per page. */
const devices = new Map<string, boolean>();

/**
 * What to play for the videos near the one on screen: the original where this browser plays
 * it, else the playback copy the server makes, with the words that it is being prepared until
 * then. Asked once per video and version; asked again when the source says so, and every
 * RECHECK_MS while a copy is under way.
 */
export function useVideoPlayback(videos: readonly VideoItem[], source: PlaybackSource): (item: VideoItem) => VideoPlayback {
  const queryClient = useQueryClient();
  const [answered, setAnswered] = useState(0);
  const results = useQueries({
    queries: videos.map((video) => ({
      queryKey: ['playback', source.scope, video.id, video.version],
      queryFn: () => source.facts(video.id),
      staleTime: 60_000,
      refetchInterval: (query: { state: { data?: PlaybackFacts | undefined } }) =>
        query.state.data && ['waiting', 'making'].includes(query.state.data.copy.state) ? RECHECK_MS : false,
    })),
  });

  const { subscribe, scope } = source;
  useEffect(
    () =>
      subscribe?.((nodeId) => void queryClient.invalidateQueries({ queryKey: ['playback', scope, ...(nodeId === null ? [] : [nodeId])] })),
    [queryClient, subscribe, scope],
  );

  const facts = new Map(videos.map((video, i) => [video.id, results[i]] as const));
  return useCallback(
    (item: VideoItem): VideoPlayback => {
      const result = facts.get(item.id);
      // Not asked (not near), or the server could not say: the original, as before copies existed.
      if (!result || result.isError) return { deciding: false, preferCopy: false, copy: null };
      if (!result.data) return { deciding: true, preferCopy: false, copy: null };
      const info = result.data;
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
      return chooseVideo(info, plays && device, source.copyUrl(item.id));
    },
    // `results` is a new array whenever any answer changes, the source whenever a link is made,
    // `answered` whenever the device answers: each makes a new function, so the slides draw again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [results, source, answered],
  );
}
