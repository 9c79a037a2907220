/**
 * Where a process spends its CPU while something runs: `perf record` on its pid (every thread)
 * for the length of `work`, then the symbols with the most self time (`perf report
 * --no-children`), kernel and user side. A node process names its JavaScript functions to perf
 * only when started with --perf-basic-prof; without it they show as addresses in "[JIT]".
 */
import { execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { removeTempDir, tempDir, track } from './proc.ts';

const execFileAsync = promisify(execFile);

export async function perfAvailable(): Promise<boolean> {
  try {
    await execFileAsync('perf', ['--version'], { timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

/** The `top` symbols by self time of `pid` while `work` runs, as "12.34%  [kernel]  copy_user_enhanced_fast_string". */
export async function perfTopSelf(pid: number, work: () => Promise<void>, top = 15): Promise<string[]> {
  const dir = await tempDir('hearth-bench-perf-');
  const data = path.join(dir, 'perf.data');
  try {
    const recorder = track(spawn('perf', ['record', '-F', '999', '-p', String(pid), '-o', data], { stdio: ['ignore', 'ignore', 'pipe'] }));
    let errors = '';
    recorder.stderr!.on('data', (chunk) => (errors += chunk));
    // perf writes its file on SIGINT and then ends by that signal.
    const exited = new Promise<boolean>((resolve) => recorder.once('exit', (code, signal) => resolve(code === 0 || signal === 'SIGINT')));
    // perf needs a moment to attach before the work starts.
    await new Promise((resolve) => setTimeout(resolve, 500));
    try {
      await work();
    } finally {
      recorder.kill('SIGINT');
    }
    if (!(await exited)) throw new Error(`perf record failed: ${errors}`);
    const { stdout } = await execFileAsync(
      'perf',
      ['report', '-i', data, '--no-children', '--sort', 'dso,symbol', '--stdio', '--percent-limit', '0.5'],
      { timeout: 120_000, maxBuffer: 64 * 1024 * 1024 },
    );
    return stdout
      .split('\n')
      .filter((line) => /^\s+\d+\.\d+%/.test(line))
      .slice(0, top)
      .map((line) => line.trim().replace(/\s+/g, ' '));
  } finally {
    await removeTempDir(dir);
  }
}
