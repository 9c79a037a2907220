import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { processMedia } from '../server/src/media/processor.ts';
import { DEFAULT_MEDIA_LIMITS, type MediaTools } from '../server/src/media/media-info.ts';
import { bundledFfmpeg } from '../server/src/media/tools.ts';
import { findExecutable } from '../server/src/platform/run.ts';
import { removeTempDir, tempDir } from './lib/proc.ts';
import { log, type BenchResult, type Row } from './lib/report.ts';
import { summarize } from './lib/stats.ts';

const RUNS = 5;

/**
 * The poster, upright size and capture time of a 10-second 1080p H.264 MP4, through the
 * server's own video code (processor.ts), with the static ffmpeg shipped in node_modules (no
 * ffprobe: ffmpeg alone) against the system's ffmpeg and ffprobe in the same run.
 */
export async function benchVideoPoster(): Promise<BenchResult> {
  const bundled = bundledFfmpeg();
  const system = findExecutable('ffmpeg');
  if (!bundled) throw new Error('no bundled ffmpeg: @ffmpeg-installer/ffmpeg has no package for this platform');
  const work = await tempDir('hearth-bench-poster-');
  try {
    const video = path.join(work, '1080p-10s.mp4');
    await promisify(execFile)(bundled.path, [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=1920x1080:rate=30',
      '-t',
      '10',
      '-c:v',
      'libx264',
      '-pix_fmt',
      'yuv420p',
      '-metadata',
      'creation_time=2024-05-06T07:08:09Z',
      video,
    ]);
    const time = async (tools: MediaTools) => {
      const samples: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t0 = performance.now();
        const info = await processMedia(video, 'video/mp4', tools, DEFAULT_MEDIA_LIMITS);
        samples.push(performance.now() - t0);
        if (!info.thumbnails || info.width !== 1920 || info.takenAt === null) throw new Error(`poster failed: ${info.failure}`);
      }
      return summarize(samples).p50;
    };
    const none = { heifConvert: null, prlimit: null };
    const bundledMs = await time({ ...none, ffmpeg: bundled.path, ffprobe: null });
    log(`  bundled ffmpeg ${bundled.version}: ${bundledMs.toFixed(0)} ms p50`);
    const rows: Row[] = [];
    const notes = [`Poster of a 10 s 1080p H.264 MP4, p50 of ${RUNS}; bundled ffmpeg ${bundled.version} (${bundled.path}).`];
    if (system) {
      const probe = findExecutable('ffprobe');
      const systemMs = await time({ ...none, ffmpeg: system, ffprobe: probe });
      log(`  system ffmpeg: ${systemMs.toFixed(0)} ms p50`);
      rows.push({
        figure: 'video poster, bundled ffmpeg (10 s 1080p MP4)',
        value: bundledMs,
        reference: systemMs,
        unit: 'ms',
        better: 'lower',
        referenceIs: `the system's ffmpeg (${system}) with ffprobe, same file, same code`,
      });
    } else {
      notes.push('No system ffmpeg here: the bundled figure has no reference (install ffmpeg to compare).');
    }
    return { name: 'video poster', rows, notes };
  } finally {
    await removeTempDir(work);
  }
}
