import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sleep } from './stats.ts';

/** Children still alive, killed on exit however the run ends. */
const children = new Set<ChildProcess>();
const tempDirs = new Set<string>();

export function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export function killAll(): void {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
}

/** Stops a child with SIGTERM (SIGKILL after a grace period) and waits for it to exit. */
export async function stopChild(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** A fresh directory in the OS temp dir; removed by `removeTempDirs` or at exit. */
export async function tempDir(prefix: string): Promise<string> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), prefix));
  tempDirs.add(dir);
  return dir;
}

export async function removeTempDir(dir: string): Promise<void> {
  await fsp.rm(dir, { recursive: true, force: true });
  tempDirs.delete(dir);
}

function removeTempDirsSync(): void {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

/** Kills children and removes temp dirs on normal exit and on Ctrl-C / SIGTERM. */
export function installCleanup(): void {
  process.once('exit', () => {
    killAll();
    removeTempDirsSync();
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      process.stderr.write(`\n${signal}: stopping benchmarks\n`);
      process.exit(130);
    });
  }
}

/** Resident set size of a live process, from /proc (Linux), in KiB. */
export function rssKb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  if (!match) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(match[1]);
}

/** Runs a node process and resolves once it printed `ready` on stdout. */
export async function spawnNode(args: string[], readyPattern: RegExp, env: NodeJS.ProcessEnv = process.env): Promise<ChildProcess> {
  return (await spawnNodeMatch(args, readyPattern, env)).child;
}

/** Like `spawnNode`, and also hands back the match of `readyPattern` (e.g. the port it printed). */
export async function spawnNodeMatch(
  args: string[],
  readyPattern: RegExp,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const child = track(spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] }));
  let output = '';
  child.stderr!.on('data', (chunk) => (output += chunk));
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`process did not get ready:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk;
      const found = readyPattern.exec(output);
      if (found) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        // Keep draining stdout so a chatty child never blocks on a full pipe.
        child.stdout!.resume();
        resolve(found);
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`process exited with ${code}:\n${output}`));
    });
  });
  return { child, match };
}

/** CPU time (user + system, all threads) a live process has used so far, in ms. */
export function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

/**
 * CPU time the whole machine spent busy, in ms, from /proc/stat: every process, kernel thread and
 * interrupt (user, nice, system, irq, softirq, steal). Around one transfer on a quiet machine it
 * is that transfer's whole cost, on whichever process the kernel happened to charge it.
 */
export function machineCpuMs(): number {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
  const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
  return (((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/**
 * CPU time (user + system) of the children a live process has waited for once they ended, in
 * ms: a tool it ran to its end (ffmpeg), which cpuMs never sees.
 */
export function endedChildrenCpuMs(pid: number | 'self'): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[13]) + Number(fields[14]);
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** The live child processes of a process (Linux: from every thread's children list). */
export function childPids(pid: number): number[] {
  const tasks = fs.readdirSync(`/proc/${pid}/task`);
  return tasks.flatMap((tid) => fs.readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
}

/** USER_HZ; 100 on every Linux this runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

/** CPU time this process has used so far, in ms. */
export function ownCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/**
 * Waits until a process has done with its background work (under 50 ms of CPU in a second, for
 * at most a minute): a server's first start makes its certificates, uploads queue media jobs.
 */
export async function settled(pid: number): Promise<void> {
  for (let i = 0; i < 60; i++) {
    const before = cpuMs(pid);
    await sleep(1_000);
    if (cpuMs(pid) - before < 50) return;
  }
}
