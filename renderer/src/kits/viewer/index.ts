import { lazy } from 'react';

/** The viewer is loaded when first opened: the lightbox is no part of the first screen. */
export const LazyViewer = lazy(() => import('./Viewer.tsx').then((module) => ({ default: module.Viewer })));
export type { ViewerProps } from './Viewer.tsx';
export { describeTaken, formatLength, formatLocalFull, formatTakenFull, placeName, storyTitle, takenTime } from './dates.ts';
export { browserPlays, chooseVideo, devicePlays, type PlaybackFacts } from './playback.ts';
export { useVideoPlayback, type PlaybackSource } from './useVideoPlayback.ts';
export {
  browserCanShow,
  isVideo,
  type DetailLine,
  type VideoPlayback,
  type ViewerAction,
  type ViewerItem,
  type ViewerMark,
  type ViewerSource,
} from './types.ts';
