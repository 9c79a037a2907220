/**
 * A listing loop in a process of its own. The media benchmark's uploads (tus-js-client moving
 * megabytes of buffers) hold its event loop for tens of milliseconds at a time; a loop sharing
 * that event loop would count those stalls as the server's latency.
 *
 * Parent side: `startListingProbe()`. Child side: this same file, run with `--probe`.
 */
import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { timedGet } from './http.ts';
import { cpuMs, track } from './proc.ts';
import { sleep } from './stats.ts';

interface Run {
  url: string;
  token: string;
  intervalMs: number;
  maxMs: number;
}

type ToProbe = ({ type: 'run' } & Run) | { type: 'stop' };
/** One request: when it was sent (ms since the epoch, comparable across processes) and how long it took. */
export interface ListingSample {
  at: number;
  ms: number;
}

type FromProbe = { type: 'samples'; samples: ListingSample[] } | { type: 'error'; message: string };

export interface ListingProbe {
  /**
   * GET `url` every `intervalMs` (sequential, one keep-alive connection; a slow answer delays
   * the next request, it does not pile up) until `stop()` or `maxMs`; resolves with the times.
   */
  run(url: string, token: string, intervalMs: number, maxMs: number): Promise<ListingSample[]>;
  stop(): void;
  /** CPU the probe process has used so far, in ms. */
  cpuMs(): number;
  close(): void;
}

export async function startListingProbe(): Promise<ListingProbe> {
  const child: ChildProcess = track(
    fork(fileURLToPath(import.meta.url), ['--probe'], {
      execArgv: ['--import', import.meta.resolve('tsx')],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
  );
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  return {
    run: (url, token, intervalMs, maxMs) =>
      new Promise((resolve, reject) => {
        const onExit = (code: number | null) => reject(new Error(`the listing probe exited with ${code}`));
        child.once('exit', onExit);
        child.once('message', (message: FromProbe) => {
          child.off('exit', onExit);
          if (message.type === 'samples') resolve(message.samples);
          else reject(new Error(message.message));
        });
        child.send({ type: 'run', url, token, intervalMs, maxMs } satisfies ToProbe);
      }),
    stop: () => child.send({ type: 'stop' } satisfies ToProbe),
    cpuMs: () => cpuMs(child.pid!),
    close: () => child.kill('SIGKILL'),
  };
}

if (process.argv.includes('--probe')) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let stopped = false;
  process.on('message', (message: ToProbe) => {
    if (message.type === 'stop') {
      stopped = true;
      return;
    }
    stopped = false;
    loop(message).then(
      (samples) => process.send!({ type: 'samples', samples } satisfies FromProbe),
      (error: unknown) => process.send!({ type: 'error', message: String(error) } satisfies FromProbe),
    );
  });
  process.on('disconnect', () => process.exit(0));

  async function loop({ url, token, intervalMs, maxMs }: Run): Promise<ListingSample[]> {
    const samples: ListingSample[] = [];
    const start = performance.now();
    let due = start;
    while (!stopped && performance.now() - start < maxMs) {
      const at = performance.timeOrigin + performance.now();
      const res = await timedGet(agent, url, token);
      if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${res.body}`);
      samples.push({ at, ms: res.ms });
      due += intervalMs;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      else due = performance.now();
    }
    return samples;
  }
}
