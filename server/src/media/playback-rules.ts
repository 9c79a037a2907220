import type { AudioStream, VideoProbe, VideoStream } from './video-probe.ts';

/**
 * Which videos get a playback copy, and what the copy is made of.
 *
 * The family's browsers are Chrome and Edge (Chromium, on Android, Windows, a Chromebook),
 * Firefox, and Safari on iPhones and Macs, some of them years old. The one video every one of
 * them plays is H.264 (8-bit 4:2:0, the Baseline, Main and High profiles) with AAC or MP3
 * sound, in an MP4/QuickTime file. Anything else is left out by at least one of them: HEVC
 * (every iPhone since 2017) by Firefox and by Chromium without a hardware decoder; VP9 and AV1
 * by older iPhones; ProRes, MPEG-4 Part 2, MJPEG, WMV by all; 10-bit or 4:2:2 H.264 by most;
 * PCM, AC-3 or Opus sound by one or another. So a copy is made for every video outside the
 * first set, whichever browser opened it first: the copy must be there for the next one, and
 * the browser that can play the original still plays the original (the client asks it, with
 * canPlayType, using `originalType` below).
 */

const UNIVERSAL_H264_PROFILES = new Set(['Baseline', 'Constrained Baseline', 'Main', 'High']);
const UNIVERSAL_PIXELS = new Set(['yuv420p', 'yuvj420p']);
const UNIVERSAL_AUDIO = new Set(['aac', 'mp3']);
/** HE-AAC plays everywhere too; AAC-LD/ELD (FaceTime-like recordings) does not. */
const UNIVERSAL_AAC_PROFILES = new Set(['LC', 'HE-AAC', 'HE-AACv2']);

/** What the copy needs done to each stream: `copy` keeps the stream's bytes (a remux), `encode` makes it again. */
export interface CopyPlan {
  video: 'copy' | 'encode';
  audio: 'copy' | 'encode' | 'none';
  /** The picture is HDR (HLG or PQ): tone-mapped to SDR, or it would look grey and washed out as 8-bit H.264. */
  hdr: boolean;
}

export type Verdict = { needed: false; why: string } | { needed: true; why: string; plan: CopyPlan };

export function isMp4Family(container: string): boolean {
  return container.split(',').some((name) => name === 'mp4' || name === 'mov');
}

function universalVideo(video: VideoStream): boolean {
  return (
    video.codec === 'h264' &&
    (video.profile === null || UNIVERSAL_H264_PROFILES.has(video.profile)) &&
    (video.pixelFormat === null || UNIVERSAL_PIXELS.has(video.pixelFormat))
  );
}

function universalAudio(audio: AudioStream): boolean {
  if (!UNIVERSAL_AUDIO.has(audio.codec)) return false;
  return audio.codec !== 'aac' || audio.profile === null || UNIVERSAL_AAC_PROFILES.has(audio.profile);
}

export function isHdr(video: VideoStream): boolean {
  return video.colorTransfer === 'arib-std-b67' || video.colorTransfer === 'smpte2084';
}

/** Whether a video needs a playback copy, why (for the log and the tests), and what the copy does to each stream. */
export function judge(probe: VideoProbe): Verdict {
  const { video, audio } = probe;
  if (!video) return { needed: false, why: 'no picture to play' };
  const videoOk = universalVideo(video);
  const audioOk = audio === null || universalAudio(audio);
  const containerOk = isMp4Family(probe.container);
  if (videoOk && audioOk && containerOk) return { needed: false, why: 'H.264 with AAC or MP3 sound in an MP4 file: plays everywhere' };
  const reasons = [
    ...(videoOk ? [] : [`${video.codec}${video.profile ? ` (${video.profile})` : ''} ${video.pixelFormat ?? ''}`.trim()]),
    ...(audioOk ? [] : [`${audio!.codec} sound`]),
    ...(containerOk ? [] : [`a ${probe.container} file`]),
  ];
  return {
    needed: true,
    why: `not every browser plays ${reasons.join(', ')}`,
    plan: {
      video: videoOk ? 'copy' : 'encode',
      audio: audio === null ? 'none' : audioOk ? 'copy' : 'encode',
      hdr: !videoOk && isHdr(video),
    },
  };
}

/**
 * The original's type with its codecs (RFC 6381), for the browser's own canPlayType and
 * MediaCapabilities: `video/mp4; codecs="hvc1.1.6.L93.B0, mp4a.40.2"`. Null when its codecs
 * have no such name (ProRes, PCM sound...): then no browser is asked, and the copy is played.
 * MP4 and QuickTime are asked as video/mp4: Chromium plays H.264 .mov files while answering
 * nothing for video/quicktime.
 */
export function originalType(probe: VideoProbe): string | null {
  if (!probe.video) return null;
  const container = isMp4Family(probe.container)
    ? 'video/mp4'
    : probe.container.split(',').includes('webm')
      ? 'video/webm'
      : probe.container.includes('matroska')
        ? 'video/x-matroska'
        : null;
  const video = videoCodec(probe.video);
  const audio = probe.audio ? audioCodec(probe.audio) : '';
  if (!container || !video || audio === null) return null;
  return `${container}; codecs="${audio ? `${video}, ${audio}` : video}"`;
}

const H264_PROFILE_IDC: Record<string, string> = {
  'Constrained Baseline': '42E0',
  Baseline: '4200',
  Main: '4D40',
  Extended: '5800',
  High: '6400',
  'High 10': '6E00',
  'High 4:2:2': '7A00',
  'High 4:4:4 Predictive': 'F400',
};

function videoCodec(video: VideoStream): string | null {
  switch (video.codec) {
    case 'h264': {
      const profile = H264_PROFILE_IDC[video.profile ?? 'High'];
      if (!profile) return null;
      const level = (video.level ?? 40).toString(16).toUpperCase().padStart(2, '0');
      return `avc1.${profile}${level}`;
    }
    case 'hevc': {
      // hvc1.<profile>.<compatibility>.<tier><level>.<constraints>: Main is 1 (compatible 6), Main 10 is 2 (4), the range extensions 4 (10).
      const [idc, compatibility] = video.profile === 'Main 10' ? [2, 4] : video.profile === 'Rext' ? [4, 10] : [1, 6];
      const tag = video.tag === 'hev1' ? 'hev1' : 'hvc1';
      return `${tag}.${idc}.${compatibility}.L${video.level ?? 120}.B0`;
    }
    case 'vp9':
      return `vp09.0${video.profile === 'Profile 2' ? 2 : 0}.41.${video.pixelFormat?.includes('10') ? 10 : '08'}`;
    case 'vp8':
      return 'vp8';
    case 'av1':
      return `av01.0.08M.${video.pixelFormat?.includes('10') ? 10 : '08'}`;
    default:
      return null;
  }
}

function audioCodec(audio: AudioStream): string | null {
  switch (audio.codec) {
    case 'aac':
      return audio.profile === 'HE-AACv2' ? 'mp4a.40.29' : audio.profile === 'HE-AAC' ? 'mp4a.40.5' : 'mp4a.40.2';
    case 'mp3':
      return 'mp4a.6B';
    case 'opus':
      return 'opus';
    case 'vorbis':
      return 'vorbis';
    case 'flac':
      return 'fLaC';
    case 'ac3':
      return 'ac-3';
    case 'eac3':
      return 'ec-3';
    case 'alac':
      return 'alac';
    default:
      return null;
  }
}

/** The copy is at most 1080p: 1920 on its long edge and 1080 on its short one. */
const LONG_EDGE = 1920;
const SHORT_EDGE = 1080;

/**
 * The copy's size, upright (ffmpeg turns the picture by its display matrix as it encodes):
 * the original's, or scaled down to fit 1080p, with even sides (4:2:0 H.264 needs them).
 */
export function copySize(video: Pick<VideoStream, 'width' | 'height' | 'rotation'>): { width: number; height: number } {
  const sideways = Math.abs(Math.round(video.rotation)) % 180 === 90;
  const [width, height] = sideways ? [video.height, video.width] : [video.width, video.height];
  const [boxW, boxH] = width >= height ? [LONG_EDGE, SHORT_EDGE] : [SHORT_EDGE, LONG_EDGE];
  const scale = Math.min(1, boxW / width, boxH / height);
  const even = (n: number) => Math.max(2, 2 * Math.round((n * scale) / 2));
  return { width: even(width), height: even(height) };
}
