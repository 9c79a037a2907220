import fs from 'node:fs';
import path from 'node:path';
import { findExecutable } from '../platform/run.ts';
import type { MediaTools } from './processor.ts';

/** The system tools media processing can use; a configured ffmpeg also names its ffprobe. */
export function detectMediaTools(config: { ffmpegPath: string | null; heifConvertPath: string | null }): MediaTools {
  const ffmpeg = config.ffmpegPath ?? findExecutable('ffmpeg');
  const siblingProbe = ffmpeg ? path.join(path.dirname(ffmpeg), 'ffprobe') : null;
  return {
    ffmpeg,
    ffprobe: siblingProbe && fs.existsSync(siblingProbe) ? siblingProbe : findExecutable('ffprobe'),
    heifConvert: config.heifConvertPath ?? findExecutable('heif-convert'),
    prlimit: findExecutable('prlimit'),
  };
}
