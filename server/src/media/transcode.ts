import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { copySize, type CopyPlan } from './playback-rules.ts';
import { inputArguments, type VideoInput } from './video-input.ts';
import type { VideoProbe } from './video-probe.ts';

/**
 * The copy's settings. x264's `veryfast` at CRF 23: a 1080p minute of a phone's video in well
 * under a minute on a modest two-core PC (npm run bench -- playback-copy), at a quality the
 * eye does not tell from the original on a phone or a laptop; slower presets buy a few percent
 * of size for twice the time. High profile, 4:2:0, 8 bits: what every browser decodes, in
 * hardware on phones. Stereo AAC at 160 kb/s. `+faststart` puts the index at the front, so a
 * browser starts playing (and seeks) after the first request instead of reading to the end.
 */
export const COPY_SETTINGS = {
  preset: 'veryfast',
  crf: 23,
  audioBitRate: '160k',
} as const;

/** The lowest CPU priority: a copy runs on what the family, the server and its thumbnails leave. */
export const COPY_NICENESS = 19;

/** Tools found at start that lower a process's priority further, when the OS has them. */
export interface PriorityTools {
  /** `nice`: the whole process tree starts at COPY_NICENESS (threads made later inherit it). */
  nice: string | null;
  /** `ionice`: reads and writes in the idle class, after everyone else's. */
  ionice: string | null;
  prlimit: string | null;
}

/** The ffmpeg arguments that make `output` from `input` (opened by its one demuxer: video-input.ts) by `plan`. */
export function copyArguments(
  input: VideoInput,
  output: string,
  probe: VideoProbe,
  plan: CopyPlan,
  options: { tonemap: boolean; maxBytes?: number | null },
): string[] {
  const args = ['-hide_banner', '-nostdin', '-nostats', '-v', 'error', '-progress', 'pipe:1', ...inputArguments(input)];
  args.push('-map', '0:v:0');
  if (plan.audio !== 'none') args.push('-map', '0:a:0');
  // Subtitles, timecodes and an iPhone's metadata tracks are of no use to a browser.
  args.push('-sn', '-dn');
  if (plan.video === 'copy') {
    args.push('-c:v', 'copy');
  } else {
    const { width, height } = copySize(probe.video!);
    const filters =
      plan.hdr && options.tonemap
        ? [
            `zscale=w=${width}:h=${height}:t=linear:npl=100`,
            'format=gbrpf32le',
            'zscale=p=bt709',
            'tonemap=tonemap=hable:desat=0',
            'zscale=t=bt709:m=bt709:r=tv',
            'format=yuv420p',
          ]
        : [`scale=${width}:${height}`, 'format=yuv420p'];
    args.push('-vf', filters.join(','));
    args.push('-c:v', 'libx264', '-preset', COPY_SETTINGS.preset, '-crf', String(COPY_SETTINGS.crf), '-profile:v', 'high');
    if (plan.hdr && options.tonemap) args.push('-color_primaries', 'bt709', '-color_trc', 'bt709', '-colorspace', 'bt709');
  }
  if (plan.audio === 'copy') args.push('-c:a', 'copy');
  else if (plan.audio === 'encode') {
    args.push('-c:a', 'aac', '-b:a', COPY_SETTINGS.audioBitRate);
    if ((probe.audio?.channels ?? 2) > 2) args.push('-ac', '2');
  }
  // Phones' files interleave sound and picture loosely: a small muxing queue fails on some of them.
  // The room left in the quota of the video's owners: ffmpeg stops there rather than write a copy that could not be kept.
  if (options.maxBytes != null) args.push('-fs', String(Math.max(0, Math.floor(options.maxBytes))));
  args.push('-max_muxing_queue_size', '4096', '-movflags', '+faststart', '-f', 'mp4', '-y', output);
  return args;
}

export interface TranscodeHandle {
  /** Resolves when ffmpeg has written the whole file; rejects with what it said otherwise. */
  done: Promise<void>;
  pid: number | undefined;
  /** Stops ffmpeg where it is (SIGSTOP), for thumbnails to go first; no-op where the OS has no such signal. */
  pause(): void;
  resume(): void;
  /** Ends it now; `done` rejects. */
  kill(): void;
}

/**
 * Runs ffmpeg for a copy at the lowest priority the OS gives: niced to 19 (through `nice` so
 * that every thread it starts is too, else by setPriority once it runs) and, where `ionice`
 * exists, in the idle I/O class, so an upload's writes go before the copy's. `onProgress` hears
 * the seconds of the output written so far. ffmpeg that writes nothing new for `stallMs` (a
 * file that makes it spin) is killed; paused time does not count.
 */
export function runTranscode(
  ffmpeg: string,
  args: string[],
  tools: PriorityTools,
  options: { memoryBytes: number; stallMs: number; onProgress?: (seconds: number) => void },
): TranscodeHandle {
  const chain: string[] = [];
  if (tools.nice) chain.push(tools.nice, '-n', String(COPY_NICENESS));
  if (tools.ionice) chain.push(tools.ionice, '-c', '3');
  if (tools.prlimit) chain.push(tools.prlimit, `--as=${options.memoryBytes}`, '--');
  chain.push(ffmpeg, ...args);
  const child: ChildProcess = spawn(chain[0]!, chain.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
  if (!tools.nice && child.pid) {
    try {
      os.setPriority(child.pid, COPY_NICENESS);
    } catch {
      // Not permitted: the copy runs at the server's priority, one at a time all the same.
    }
  }
  let paused = false;
  let lastMove = Date.now();
  let written = 0;
  let stalled = false;
  let stderr = '';
  let pending = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    pending += chunk.toString('latin1');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      // out_time_us, and out_time_ms beside it (microseconds too, misnamed; older builds have only that one).
      const match = /^out_time_(?:us|ms)=(\d+)/.exec(line);
      const seconds = match ? Number(match[1]) / 1e6 : 0;
      if (seconds > written) {
        written = seconds;
        lastMove = Date.now();
        options.onProgress?.(seconds);
      }
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    if (stderr.length < 4000) stderr += chunk.toString();
  });
  const watchdog = setInterval(
    () => {
      if (paused) lastMove = Date.now();
      else if (Date.now() - lastMove > options.stallMs) {
        stalled = true;
        child.kill('SIGKILL');
      }
    },
    Math.min(5_000, options.stallMs),
  );
  watchdog.unref();
  const done = new Promise<void>((resolve, reject) => {
    child.on('error', (error) => {
      clearInterval(watchdog);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearInterval(watchdog);
      if (code === 0) resolve();
      else if (stalled) reject(new Error(`ffmpeg wrote nothing for ${Math.round(options.stallMs / 1000)} s: stopped`));
      else reject(new TranscodeError(stderr.trim().slice(0, 600), code, signal));
    });
  });
  const signal = (name: NodeJS.Signals) => {
    try {
      child.kill(name);
    } catch {
      // No such signal here (Windows): the copy goes on at its low priority.
    }
  };
  return {
    done,
    pid: child.pid,
    pause: () => {
      if (paused || process.platform === 'win32') return;
      paused = true;
      signal('SIGSTOP');
    },
    resume: () => {
      if (!paused) return;
      paused = false;
      lastMove = Date.now();
      signal('SIGCONT');
    },
    kill: () => {
      // A stopped process takes SIGKILL all the same.
      signal('SIGKILL');
    },
  };
}

export class TranscodeError extends Error {
  constructor(
    readonly stderr: string,
    readonly code: number | null,
    readonly signal: NodeJS.Signals | null,
  ) {
    super(`ffmpeg failed (${signal ?? `exit ${code}`}): ${stderr.slice(0, 300)}`);
  }

  /** ffmpeg ran out of room on the disk it writes to (its message, since it gives no errno). */
  get diskFull(): boolean {
    return /No space left on device|ENOSPC/i.test(this.stderr);
  }
}
