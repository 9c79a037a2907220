import type { MediaTools } from './media-info.ts';
import { runTool } from './run-tool.ts';
import { inputArguments, type VideoInput } from './video-input.ts';

/** What a video file holds, as far as playing it in a browser is concerned. */
export interface VideoProbe {
  /** ffmpeg's name of the container: `mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`, `avi`. */
  container: string;
  durationSeconds: number | null;
  video: VideoStream | null;
  audio: AudioStream | null;
}

export interface VideoStream {
  /** ffmpeg's codec name: `h264`, `hevc`, `prores`, `vp9`. */
  codec: string;
  /** `High`, `Main 10`, `Constrained Baseline`; null when not said. */
  profile: string | null;
  /** The codec's level number as the stream carries it (H.264: 40 is 4.0; HEVC: 120 is 4.0); null when not said. */
  level: number | null;
  /** The sample entry's four letters (`hvc1`, `hev1`, `avc1`): Safari plays HEVC tagged hvc1 only. */
  tag: string | null;
  pixelFormat: string | null;
  /** Stored size, before the display matrix turns it. */
  width: number;
  height: number;
  /** Degrees the display matrix turns the picture. */
  rotation: number;
  framesPerSecond: number | null;
  bitRate: number | null;
  /** `arib-std-b67` (HLG) or `smpte2084` (PQ) for HDR; null when not said. */
  colorTransfer: string | null;
}

export interface AudioStream {
  codec: string;
  profile: string | null;
  channels: number | null;
}

const PROBE_TIMEOUT_MS = 60_000;

/**
 * Reads a video's container and first video and audio streams, with ffprobe where there is one
 * and from ffmpeg's summary of its input otherwise (the ffmpeg shipped in node_modules comes
 * without ffprobe). It reads the file's headers, not its pictures: a fraction of a second.
 * The input is opened by the one demuxer its bytes named (video-input.ts).
 */
export async function probeVideo(input: VideoInput, tools: MediaTools, memoryBytes: number): Promise<VideoProbe> {
  const limits = { timeoutMs: PROBE_TIMEOUT_MS, memoryBytes, prlimit: tools.prlimit };
  if (tools.ffprobe) {
    const out = await runTool(
      tools.ffprobe,
      [
        '-v',
        'error',
        ...inputArguments(input),
        '-show_entries',
        'format=format_name,duration:stream=codec_type,codec_name,codec_tag_string,profile,level,pix_fmt,width,height,avg_frame_rate,bit_rate,channels,color_transfer:stream_disposition=attached_pic:stream_tags=rotate:stream_side_data=rotation',
        '-of',
        'json',
      ],
      limits,
    );
    return fromFfprobe(JSON.parse(out.stdout.toString('utf8')) as FfprobeJson);
  }
  if (!tools.ffmpeg) throw new Error('no ffmpeg: videos cannot be probed');
  // `-t 0 -f null -`: read the headers, decode nothing, write nothing; the summary goes to stderr.
  const out = await runTool(
    tools.ffmpeg,
    ['-hide_banner', '-nostdin', '-nostats', '-v', 'info', ...inputArguments(input), '-t', '0', '-f', 'null', '-'],
    limits,
  );
  return fromSummary(out.stderr);
}

interface FfprobeStream {
  codec_type?: string;
  codec_name?: string;
  codec_tag_string?: string;
  profile?: string;
  level?: number;
  pix_fmt?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  bit_rate?: string;
  channels?: number;
  color_transfer?: string;
  disposition?: { attached_pic?: number };
  tags?: { rotate?: string };
  side_data_list?: { rotation?: number }[];
}

export interface FfprobeJson {
  streams?: FfprobeStream[];
  format?: { format_name?: string; duration?: string };
}

export function fromFfprobe(json: FfprobeJson): VideoProbe {
  const streams = json.streams ?? [];
  // A cover picture (an attached_pic stream) is no video to play.
  const video = streams.find((s) => s.codec_type === 'video' && s.disposition?.attached_pic !== 1 && s.codec_name);
  const audio = streams.find((s) => s.codec_type === 'audio' && s.codec_name);
  const duration = Number(json.format?.duration);
  return {
    container: json.format?.format_name ?? 'unknown',
    durationSeconds: Number.isFinite(duration) && duration > 0 ? duration : null,
    video:
      video && video.width && video.height
        ? {
            codec: video.codec_name!,
            profile: known(video.profile),
            level: typeof video.level === 'number' && video.level > 0 ? video.level : null,
            tag: tagOf(video.codec_tag_string),
            pixelFormat: known(video.pix_fmt),
            width: video.width,
            height: video.height,
            rotation: Number(video.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? video.tags?.rotate ?? 0) || 0,
            framesPerSecond: rate(video.avg_frame_rate),
            bitRate: positive(Number(video.bit_rate)),
            colorTransfer: known(video.color_transfer),
          }
        : null,
    audio: audio ? { codec: audio.codec_name!, profile: known(audio.profile), channels: audio.channels ?? null } : null,
  };
}

/**
 * ffmpeg's summary of its first input:
 *   Input #0, mov,mp4,m4a,3gp,3g2,mj2, from '...':
 *     Duration: 00:00:02.00, start: 0.000000, bitrate: 36 kb/s
 *       Stream #0:0: Video: hevc (Main) (hvc1 / 0x31637668), yuv420p(tv, progressive), 320x240 [SAR 1:1 DAR 4:3], 22 kb/s, 10 fps, ...
 *       Side data:
 *         displaymatrix: rotation of 90.00 degrees
 *       Stream #0:1(und): Audio: aac (LC) (mp4a / 0x6134706D), 48000 Hz, stereo, fltp, 64 kb/s (default)
 */
export function fromSummary(summary: string): VideoProbe {
  const input = summary.slice(Math.max(0, summary.indexOf('Input #0')));
  const end = input.search(/^(?:Input #1|Stream mapping|Output #0)/m);
  const text = end === -1 ? input : input.slice(0, end);
  const container = /^Input #0, (.+?), from /m.exec(text)?.[1] ?? 'unknown';
  const time = /Duration: (\d+):(\d{2}):(\d{2}(?:\.\d+)?)/.exec(text);
  const durationSeconds = time ? Number(time[1]) * 3600 + Number(time[2]) * 60 + Number(time[3]) : null;
  const blocks = text.split(/^(?=\s*Stream #0:)/m).slice(1);
  const videoBlock = blocks.find((b) => /^\s*Stream #0:\S*: Video: /.test(b) && !b.includes('(attached pic)'));
  const audioBlock = blocks.find((b) => /^\s*Stream #0:\S*: Audio: /.test(b));
  return {
    container,
    durationSeconds: durationSeconds !== null && durationSeconds > 0 ? durationSeconds : null,
    video: videoBlock ? videoFromSummary(videoBlock) : null,
    audio: audioBlock ? audioFromSummary(audioBlock) : null,
  };
}

function videoFromSummary(block: string): VideoStream | null {
  const line = block.split('\n', 1)[0]!;
  const head = /Video: (\w+)(?: \(([^)]*)\))?(?: \((\w{4}) \/ 0x[0-9A-Fa-f]+\))?, ([\w]+)(?:\(([^)]*)\))?/.exec(line);
  const size = /, (\d{2,5})x(\d{2,5})[ ,]/.exec(line);
  if (!head || !size) return null;
  // "(tv, bt2020nc/bt2020/arib-std-b67)": range, then matrix/primaries/transfer when tagged.
  const colours = head[5]?.split(',').map((part) => part.trim()) ?? [];
  const triple = colours.find((part) => part.split('/').length === 3);
  const displayMatrix = /displaymatrix: rotation of (-?\d+(?:\.\d+)?) degrees/.exec(block);
  const rotateTag = /^\s+rotate\s*:\s*(-?\d+)/m.exec(block);
  const kbps = /, (\d+) kb\/s/.exec(line);
  return {
    codec: head[1]!,
    profile: head[2] && !head[2].includes(' / ') ? head[2] : null,
    level: null,
    tag: tagOf(head[3]),
    pixelFormat: head[4] ?? null,
    width: Number(size[1]),
    height: Number(size[2]),
    rotation: Number(displayMatrix?.[1] ?? rotateTag?.[1] ?? 0) || 0,
    framesPerSecond: positive(Number(/, (\d+(?:\.\d+)?) fps/.exec(line)?.[1])),
    bitRate: kbps ? Number(kbps[1]) * 1000 : null,
    colorTransfer: triple ? known(triple.split('/')[2]) : null,
  };
}

function audioFromSummary(block: string): AudioStream | null {
  const line = block.split('\n', 1)[0]!;
  const head = /Audio: (\w+)(?: \(([^)]*)\))?(?: \((\w+) \/ 0x[0-9A-Fa-f]+\))?, \d+ Hz, ([^,]+)/.exec(line);
  if (!head) return null;
  return { codec: head[1]!, profile: head[2] && !head[2].includes(' / ') ? head[2] : null, channels: channelsOf(head[4]!.trim()) };
}

/** "mono", "stereo", "5.1(side)", "7.1", "4 channels". */
function channelsOf(layout: string): number | null {
  if (layout === 'mono') return 1;
  if (layout === 'stereo') return 2;
  const counted = /^(\d+) channels/.exec(layout);
  if (counted) return Number(counted[1]);
  const surround = /^(\d+)\.(\d+)/.exec(layout);
  return surround ? Number(surround[1]) + Number(surround[2]) : null;
}

function tagOf(tag: string | undefined): string | null {
  // ffprobe says "[0][0][0][0]" for a stream without one (Matroska, WebM).
  return tag && /^[0-9A-Za-z]{4}$/.test(tag) ? tag : null;
}

function known(value: string | undefined): string | null {
  return value && value !== 'unknown' ? value : null;
}

function rate(fraction: string | undefined): number | null {
  const [num, den] = (fraction ?? '').split('/').map(Number);
  return num !== undefined && den ? positive(num / den) : null;
}

function positive(value: number): number | null {
  return Number.isFinite(value) && value > 0 ? value : null;
}
