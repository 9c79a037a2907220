import type { VideoCopy, VideoPlayback } from './types.ts';

/** What the server says of a video (GET /nodes/{id}/playback), as far as choosing what to play goes. */
export interface PlaybackFacts {
  original: { type: string | null; width: number | null; height: number | null; framerate: number | null; bitrate: number | null };
  copy: { state: 'not_needed' | 'waiting' | 'making' | 'ready' | 'failed' | 'off' | 'unavailable' | 'over_quota'; progress: number | null };
}

/**
 * Whether this browser says it plays a type with its codecs (`video/mp4; codecs="hvc1..."`).
 * Only "probably" counts: with codecs named, a browser that knows them says so, and "maybe"
 * is what some answer for a container they cannot judge.
 */
export function browserPlays(type: string | null, canPlayType: (type: string) => string): boolean {
  return type !== null && canPlayType(type) === 'probably';
}

/**
 * What the viewer plays. The original wherever the browser says it plays it (Safari plays an
 * iPhone's HEVC: no copy needed there), else the copy once it is made, else the words that it
 * is being prepared. With no copy coming (none needed, switched off, none could be made, no
 * room for one in its owner's storage) the original is tried all the same: the slide still
 * catches a video that does not play, and says why no copy came when that is worth saying.
 */
export function chooseVideo(facts: PlaybackFacts | null, plays: boolean, copyUrl: string | null): VideoPlayback {
  if (facts === null) return { deciding: false, preferCopy: false, copy: null };
  const copy: VideoCopy | null =
    facts.copy.state === 'ready'
      ? { state: 'ready', url: copyUrl, progress: null }
      : facts.copy.state === 'waiting' || facts.copy.state === 'making'
        ? { state: 'preparing', url: null, progress: facts.copy.state === 'making' ? facts.copy.progress : null }
        : null;
  const choice = { deciding: false, preferCopy: copy !== null && !plays, copy };
  return facts.copy.state === 'over_quota' ? { ...choice, noRoomForCopy: true } : choice;
}

/**
 * MediaCapabilities' second opinion where the browser has it: canPlayType says the codecs are
 * known, this says whether this device decodes this size and rate (a phone without a 4K HEVC
 * decoder). Its video and audio types are asked apart, each with one codec.
 */
export async function devicePlays(facts: PlaybackFacts['original'], capabilities: MediaCapabilities | undefined): Promise<boolean> {
  if (!capabilities || !facts.type || !facts.width || !facts.height) return true;
  const match = /^([^;]+);\s*codecs="([^"]+)"$/.exec(facts.type);
  if (!match) return true;
  const [container, codecs] = [match[1]!, match[2]!.split(',').map((codec) => codec.trim())];
  try {
    const info = await capabilities.decodingInfo({
      type: 'file',
      video: {
        contentType: `${container}; codecs="${codecs[0]}"`,
        width: facts.width,
        height: facts.height,
        bitrate: facts.bitrate ?? 10_000_000,
        framerate: facts.framerate ?? 30,
      },
    });
    return info.supported;
  } catch {
    // A type it cannot parse: canPlayType has answered already.
    return true;
  }
}
