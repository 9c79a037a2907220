import fs from 'node:fs';
import path from 'node:path';
import type { MediaTools } from './processor.ts';

/** Finds an executable on PATH (no shell involved). */
export function findExecutable(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

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
