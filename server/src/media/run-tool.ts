import { spawn } from 'node:child_process';

export interface ToolResult {
  stdout: Buffer;
  stderr: string;
}

/**
 * Runs a system tool (heif-convert, ffmpeg, ffprobe) with an argument array, never a shell
 * string, under a time limit and, where `prlimit` exists, an address-space limit: a hostile
 * file can make the tool fail, not hang the queue or eat the machine's memory.
 */
export function runTool(
  command: string,
  args: string[],
  options: { timeoutMs: number; memoryBytes?: number; prlimit?: string | null },
): Promise<ToolResult> {
  const [file, argv] =
    options.memoryBytes && options.prlimit ? [options.prlimit, [`--as=${options.memoryBytes}`, '--', command, ...args]] : [command, args];
  return new Promise((resolve, reject) => {
    const child = spawn(file, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      if (err.length < 4000) err += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve({ stdout: Buffer.concat(out), stderr: err });
      else reject(new Error(`${command} failed (${signal ?? `exit ${code}`}): ${err.trim().slice(0, 300)}`));
    });
  });
}
