import sharp from 'sharp';
import { failedWith, message, type MediaInfo, type MediaLimits, type MediaTools, type ThumbnailSize } from './media-info.ts';
import { renderThumbnails } from './thumbnails.ts';
import { runTool } from './run-tool.ts';
import { summaryTags, videoDetails, type ContainerTags } from './video-details.ts';
import { inputArguments, videoInput, type VideoInput } from './video-input.ts';

/**
 * Videos: size, creation time, zone, place and length from ffprobe, a poster frame from ffmpeg.
 * Without ffprobe (the bundled ffmpeg comes alone) ffmpeg says all of it: the poster is already
 * turned upright, so its size is the displayed size, and the rest is in the input summary
 * ffmpeg prints at `-v info`. A file whose bytes are no video container is never given to
 * either (video-containers.ts says why).
 */
export async function processVideo(
  file: string,
  tools: MediaTools,
  limits: MediaLimits,
  sizes: readonly ThumbnailSize[],
): Promise<MediaInfo> {
  let input: VideoInput;
  try {
    input = await videoInput(file);
  } catch (error) {
    return failedWith(message(error));
  }
  const info: MediaInfo = failedWith(null);
  const run = { timeoutMs: limits.timeoutMs, memoryBytes: limits.toolMemoryBytes, prlimit: tools.prlimit };
  if (tools.ffprobe) {
    try {
      const probe = await runTool(
        tools.ffprobe,
        [
          '-v',
          'error',
          ...inputArguments(input),
          '-select_streams',
          'v:0',
          '-show_entries',
          'stream=width,height:stream_tags=rotate:stream_side_data=rotation:format=duration:format_tags',
          '-of',
          'json',
        ],
        run,
      );
      Object.assign(info, videoFields(JSON.parse(probe.stdout.toString('utf8')) as FfprobeOutput));
    } catch (error) {
      info.failure = `ffprobe: ${message(error)}`;
    }
  }
  if (!tools.ffmpeg) {
    if (sizes.length === 0 && tools.ffprobe) return info;
    return { ...info, failure: info.failure ?? 'no ffmpeg: video thumbnails need it', missingTool: 'ffmpeg' };
  }
  const verbosity = tools.ffprobe ? ['-v', 'error'] : ['-hide_banner', '-nostats', '-v', 'info'];
  if (sizes.length === 0) {
    if (tools.ffprobe) return info;
    // Only the summary is wanted: one frame decoded into nothing.
    try {
      const summary = await runTool(tools.ffmpeg, [...verbosity, ...inputArguments(input), '-frames:v', '1', '-f', 'null', '-'], run);
      return { ...info, ...fromSummary(summary.stderr) };
    } catch (error) {
      return { ...info, failure: `ffmpeg: ${message(error)}` };
    }
  }
  try {
    const frame = await runTool(
      tools.ffmpeg,
      [...verbosity, ...inputArguments(input), '-frames:v', '1', '-vf', 'thumbnail=30', '-f', 'image2pipe', '-c:v', 'png', '-'],
      run,
    );
    if (frame.stdout.length === 0) throw new Error('no frame');
    if (!tools.ffprobe) Object.assign(info, fromSummary(frame.stderr));
    info.thumbnails = await renderThumbnails(frame.stdout, limits, sizes);
    if (info.width === null) {
      const m = await sharp(frame.stdout).metadata();
      info.width = m.width ?? null;
      info.height = m.height ?? null;
    }
  } catch (error) {
    info.failure = `poster frame: ${message(error)}`;
  }
  return info;
}

interface FfprobeOutput {
  streams?: { width?: number; height?: number; tags?: { rotate?: string }; side_data_list?: { rotation?: number }[] }[];
  format?: { duration?: string; tags?: ContainerTags };
}

export function videoFields(probe: FfprobeOutput): Pick<MediaInfo, 'width' | 'height' | 'takenAt' | 'details'> {
  const stream = probe.streams?.[0];
  let width = stream?.width ?? null;
  let height = stream?.height ?? null;
  const rotation = Number(stream?.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? stream?.tags?.rotate ?? 0);
  if (width !== null && height !== null && Math.abs(rotation) % 180 === 90) [width, height] = [height, width];
  const duration = probe.format?.duration === undefined ? null : Number(probe.format.duration);
  return { width, height, ...videoDetails(probe.format?.tags ?? {}, duration) };
}

/**
 * Capture time and details from ffmpeg's summary of its input (`Input #0 ... Metadata:
 * creation_time : 2020-01-02T03:04:05.000000Z ... Duration: 00:00:02.00`). The container's
 * own metadata comes before any stream's.
 */
export function fromSummary(summary: string): Pick<MediaInfo, 'takenAt' | 'details'> {
  const { tags, durationSeconds } = summaryTags(summary);
  return videoDetails(tags, durationSeconds);
}
