import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { findExecutable } from '../platform/run.ts';
import type { MediaTools } from './processor.ts';

/** Where the ffmpeg in use came from, for the start-up log and the README's promise. */
export type FfmpegOrigin = 'configured' | 'system' | 'bundled';

export interface DetectedMediaTools {
  tools: MediaTools;
  ffmpegOrigin: FfmpegOrigin | null;
  /** The bundled build's version, when that is the one in use. */
  ffmpegVersion: string | null;
}

/**
 * The tools media processing can use. ffmpeg: the configured one, else the system's on PATH
 * (usually newer, and Debian's carries ffprobe beside it), else the static build shipped in
 * the @ffmpeg-installer npm package, so a fresh install with nothing but Node still makes
 * video posters. The bundled package carries no ffprobe: video fields then come from ffmpeg
 * alone (processor.ts).
 */
export function detectMediaTools(config: { ffmpegPath: string | null; heifConvertPath: string | null }): DetectedMediaTools {
  let ffmpeg: string | null = config.ffmpegPath;
  let ffmpegOrigin: FfmpegOrigin | null = ffmpeg ? 'configured' : null;
  let ffmpegVersion: string | null = null;
  if (!ffmpeg) {
    ffmpeg = findExecutable('ffmpeg');
    if (ffmpeg) ffmpegOrigin = 'system';
  }
  if (!ffmpeg) {
    const bundled = bundledFfmpeg();
    if (bundled) [ffmpeg, ffmpegOrigin, ffmpegVersion] = [bundled.path, 'bundled', bundled.version];
  }
  const siblingProbe = ffmpeg ? path.join(path.dirname(ffmpeg), 'ffprobe') : null;
  return {
    tools: {
      ffmpeg,
      ffprobe: siblingProbe && isExecutable(siblingProbe) ? siblingProbe : findExecutable('ffprobe'),
      heifConvert: config.heifConvertPath ?? findExecutable('heif-convert'),
      prlimit: findExecutable('prlimit'),
    },
    ffmpegOrigin,
    ffmpegVersion,
  };
}

/**
 * The static ffmpeg of the platform package that @ffmpeg-installer/ffmpeg picked at install
 * (an optional dependency per OS and CPU: none on a platform it does not cover). Inside the
 * packaged desktop app the binary lies in app.asar.unpacked, since an executable cannot run
 * from within the asar archive.
 */
export function bundledFfmpeg(): { path: string; version: string } | null {
  try {
    const require = createRequire(import.meta.url);
    const found = require('@ffmpeg-installer/ffmpeg') as { path: string; version: string };
    const unpacked = found.path.replace(`app.asar${path.sep}`, `app.asar.unpacked${path.sep}`);
    return isExecutable(unpacked) ? { path: unpacked, version: found.version } : null;
  } catch {
    // The package throws (a string) when its platform package is not installed.
    return null;
  }
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
