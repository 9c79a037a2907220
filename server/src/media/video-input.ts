import { containerOfFile, type Demuxer } from './video-containers.ts';

/** A stored video as ffmpeg is to open it: the file, and the one demuxer its leading bytes named. */
export interface VideoInput {
  file: string;
  demuxer: Demuxer;
}

/** Thrown for a file whose bytes are no video container: ffmpeg is never started on it. */
export class NotAVideoError extends Error {
  constructor() {
    super('not a video: its bytes are no container Hearth reads');
  }
}

/** The input of a stored file, or NotAVideoError when its bytes are not a video's. */
export async function videoInput(file: string): Promise<VideoInput> {
  const container = await containerOfFile(file);
  if (!container) throw new NotAVideoError();
  return { file, demuxer: container.demuxer };
}

/**
 * The arguments before (and including) `-i` that open exactly this file, for ffmpeg and ffprobe
 * alike. `-f` names the demuxer instead of letting ffmpeg guess from the content; the format
 * allow-list refuses any other, nested ones included (a playlist's segments); the protocol
 * allow-list lets it read local files only (no http, tcp, udp, rtp, subfile, tee, data or
 * crypto), and `file:` before the path keeps a colon in it from naming a protocol. The
 * QuickTime demuxer can follow references to other files (data references): switched off,
 * as it is by default, so an older or differently built ffmpeg cannot differ.
 */
export function inputArguments(input: VideoInput): string[] {
  const args = ['-protocol_whitelist', 'file', '-format_whitelist', input.demuxer, '-f', input.demuxer];
  if (input.demuxer === 'mov') args.push('-enable_drefs', '0');
  return [...args, '-i', `file:${input.file}`];
}
