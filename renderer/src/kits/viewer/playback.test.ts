import { describe, expect, it } from 'vitest';
import { browserPlays, chooseVideo, devicePlays, type PlaybackFacts } from './playback.ts';

/** What Debian's Chromium answers: H.264 and AAC yes, HEVC no. */
const chromium = (type: string) => (type.includes('hvc1') || type.includes('hev1') ? '' : 'probably');
/** Safari: HEVC tagged hvc1 too. */
const safari = (type: string) => (type.includes('hev1') ? '' : 'probably');

const HEVC = 'video/mp4; codecs="hvc1.1.6.L93.B0, mp4a.40.2"';

function facts(state: PlaybackFacts['copy']['state'], type: string | null = HEVC, progress: number | null = null): PlaybackFacts {
  return { original: { type, width: 1080, height: 1920, framerate: 30, bitrate: 8_000_000 }, copy: { state, progress } };
}

describe('choosing what a video slide plays', () => {
  it("an iPhone's HEVC in Chromium: the copy once it is made, and the words that it is being prepared until then", () => {
    const plays = browserPlays(HEVC, chromium);
    expect(plays).toBe(false);
    expect(chooseVideo(facts('ready'), plays, '/copy')).toEqual({
      deciding: false,
      preferCopy: true,
      copy: { state: 'ready', url: '/copy', progress: null },
    });
    expect(chooseVideo(facts('waiting'), plays, '/copy')).toEqual({
      deciding: false,
      preferCopy: true,
      copy: { state: 'preparing', url: null, progress: null },
    });
    expect(chooseVideo(facts('making', HEVC, 0.4), plays, '/copy').copy).toEqual({ state: 'preparing', url: null, progress: 0.4 });
  });

  it('the same video in Safari: the original, which it plays, with the copy held back in case the original fails', () => {
    const plays = browserPlays(HEVC, safari);
    expect(plays).toBe(true);
    const choice = chooseVideo(facts('ready'), plays, '/copy');
    expect(choice.preferCopy).toBe(false);
    expect(choice.copy?.url).toBe('/copy');
  });

  it('no copy coming (none needed, switched off, none could be made, no ffmpeg): the original, tried as it is', () => {
    for (const state of ['not_needed', 'off', 'failed', 'unavailable'] as const) {
      expect(chooseVideo(facts(state), false, null)).toEqual({ deciding: false, preferCopy: false, copy: null });
    }
  });

  it("no room for a copy in its owner's storage: the original is tried, and the slide can say why no copy came", () => {
    expect(chooseVideo(facts('over_quota'), false, null)).toEqual({ deciding: false, preferCopy: false, copy: null, noRoomForCopy: true });
  });

  it('a type with no codecs name (ProRes, PCM sound) is never said to play: the copy is played', () => {
    expect(browserPlays(null, () => 'probably')).toBe(false);
    expect(chooseVideo(facts('ready', null), browserPlays(null, chromium), '/copy').preferCopy).toBe(true);
  });

  it('only "probably" counts as playing: "maybe" is what a browser says of what it cannot judge', () => {
    expect(browserPlays(HEVC, () => 'maybe')).toBe(false);
    expect(browserPlays(HEVC, () => 'probably')).toBe(true);
  });
});

describe("the device's second opinion (MediaCapabilities)", () => {
  it('is asked about the video alone, with its size and rate, and its answer decides', async () => {
    const asked: MediaDecodingConfiguration[] = [];
    const capabilities = (supported: boolean) =>
      ({
        decodingInfo: async (config: MediaDecodingConfiguration) => {
          asked.push(config);
          return { supported, smooth: supported, powerEfficient: supported } as MediaCapabilitiesDecodingInfo;
        },
      }) as unknown as MediaCapabilities;
    expect(await devicePlays(facts('ready').original, capabilities(false))).toBe(false);
    expect(await devicePlays(facts('ready').original, capabilities(true))).toBe(true);
    expect(asked[0]).toEqual({
      type: 'file',
      video: { contentType: 'video/mp4; codecs="hvc1.1.6.L93.B0"', width: 1080, height: 1920, bitrate: 8_000_000, framerate: 30 },
    });
  });

  it('a browser without it, or one that cannot parse the question, leaves the answer to canPlayType', async () => {
    expect(await devicePlays(facts('ready').original, undefined)).toBe(true);
    const throwing = { decodingInfo: async () => Promise.reject(new TypeError('bad type')) } as unknown as MediaCapabilities;
    expect(await devicePlays(facts('ready').original, throwing)).toBe(true);
  });
});
