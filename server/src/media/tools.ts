import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { findExecutable } from '../platform/run.ts';
import type { MediaTools } from './media-info.ts';

/** Where the ffmpeg in use came from, for the start-up log and the README's promise. */
export type FfmpegOrigin = 'configured' | 'system' | 'bundled';

export interface DetectedMediaTools {
  tools: MediaTools;
  ffmpegOrigin: FfmpegOrigin | null;
  /** The version of the ffmpeg in use, as it says it (`5.1.9-0+deb12u1`; a static build's git name). */
  ffmpegVersion: string | null;
  /** Each ffmpeg found and not used, and why (too old, or it would not run). */
  ffmpegRefused: { path: string; why: string }[];
}

/**
 * The oldest libavformat Hearth runs: 58 is FFmpeg 4.0 (2018), the series of the build shipped
 * in node_modules. Every input is opened with format and protocol allow-lists (video-input.ts),
 * which older releases honour less well, and their demuxers carry years of fixed flaws.
 */
export const MIN_LIBAVFORMAT = 58;

/**
 * The tools media processing can use. ffmpeg: the configured one, else the system's on PATH
 * (usually newer, kept current by the system's updates, and Debian's carries ffprobe beside
 * it), else the static build shipped in the @ffmpeg-installer npm package, so a fresh install
 * with nothing but Node still makes video posters. No maintained build of the ffmpeg program
 * installs from the npm registry alone (ffmpeg-static and its kin download from elsewhere at
 * install), so that 4.1 build stays, behind the allow-lists. An ffmpeg older than
 * MIN_LIBAVFORMAT, or one that does not run, is not used: the next one is (a configured one
 * has no next: the owner chose it). The bundled package carries no ffprobe: video fields then
 * come from ffmpeg alone (video-poster.ts).
 */
export function detectMediaTools(config: { ffmpegPath: string | null; heifConvertPath: string | null }): DetectedMediaTools {
  const candidates: [FfmpegOrigin, () => string | null][] = config.ffmpegPath
    ? [['configured', () => config.ffmpegPath]]
    : [
        ['system', () => findExecutable('ffmpeg')],
        ['bundled', () => bundledFfmpeg()?.path ?? null],
      ];
  const ffmpegRefused: DetectedMediaTools['ffmpegRefused'] = [];
  let chosen: { path: string; origin: FfmpegOrigin; version: string } | null = null;
  for (const [origin, find] of candidates) {
    const found = find();
    if (!found) continue;
    const verdict = ffmpegVerdict(found);
    if ('why' in verdict) ffmpegRefused.push({ path: found, why: verdict.why });
    else {
      chosen = { path: found, origin, version: verdict.version };
      break;
    }
  }
  const ffmpeg = chosen?.path ?? null;
  const siblingProbe = ffmpeg ? path.join(path.dirname(ffmpeg), 'ffprobe') : null;
  const ffprobe = siblingProbe && isExecutable(siblingProbe) ? siblingProbe : findExecutable('ffprobe');
  return {
    tools: {
      ffmpeg,
      // Held to the same rule: it opens the same files.
      ffprobe: ffprobe && 'version' in ffmpegVerdict(ffprobe) ? ffprobe : null,
      heifConvert: config.heifConvertPath ?? findExecutable('heif-convert'),
      prlimit: findExecutable('prlimit'),
    },
    ffmpegOrigin: chosen?.origin ?? null,
    ffmpegVersion: chosen?.version ?? null,
    ffmpegRefused,
  };
}

const verdicts = new Map<string, { version: string } | { why: string }>();

/** Whether an ffmpeg (or ffprobe) may be used: it runs, and its libavformat is at least MIN_LIBAVFORMAT. Asked once per path. */
export function ffmpegVerdict(ffmpeg: string): { version: string } | { why: string } {
  let verdict = verdicts.get(ffmpeg);
  if (!verdict) {
    verdict = judgeFfmpeg(ffmpeg);
    verdicts.set(ffmpeg, verdict);
  }
  return verdict;
}

function judgeFfmpeg(ffmpeg: string): { version: string } | { why: string } {
  const run = spawnSync(ffmpeg, ['-hide_banner', '-version'], { encoding: 'utf8', timeout: 10_000 });
  if (run.error || run.status !== 0) return { why: `it does not run: ${run.error?.message ?? `exit ${run.status}`}` };
  return versionVerdict(run.stdout);
}

/** The verdict on `ffmpeg -version`'s answer. */
export function versionVerdict(answer: string): { version: string } | { why: string } {
  const version = /^ff(?:mpeg|probe) version (\S+)/m.exec(answer)?.[1] ?? 'unknown';
  const format = /^libavformat\s+(\d+)\.\s*(\d+)/m.exec(answer);
  if (!format) return { why: `it does not say its libavformat version (ffmpeg ${version})` };
  if (Number(format[1]) < MIN_LIBAVFORMAT) {
    return {
      why: `too old: libavformat ${format[1]}.${format[2]} (ffmpeg ${version}); Hearth needs ${MIN_LIBAVFORMAT} (FFmpeg 4.0) or newer`,
    };
  }
  return { version };
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
