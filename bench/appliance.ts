/**
 * The appliance: the desktop app's start and its idle memory, against the headless server.
 * - app start to server ready (the tray is up and the server answers), and to the console
 *   ready (the window loaded), against `npm start` to its listening line (the bundle run by
 *   plain Node, the build excluded: both sides are built before timing);
 * - idle memory of the hosting processes (main and the server's utility process, media
 *   workers included, no window open) against the bare server's, on the same data.
 * The app runs on the Electron double (no Electron binary can be fetched here): main and the
 * utility process are Node 24 processes, and its window is Debian Chromium started for it.
 * Real Electron adds its own browser process to main; only the real binary shows that.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, type RunningApp } from '../main/test/electron-double/app-driver.ts';
import { childPids, rssKb, spawnNodeMatch, stopChild, tempDir, track } from './lib/proc.ts';
import { log, type BenchResult } from './lib/report.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = 3;
const IDLE_MS = 8_000;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** RSS of a process and all its descendants, in MB. */
function treeRssMb(pid: number): number {
  let kb = 0;
  const walk = (p: number) => {
    try {
      kb += rssKb(p);
      for (const child of childPids(p)) walk(child);
    } catch {
      // exited meanwhile
    }
  };
  walk(pid);
  return kb / 1024;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function bareServer(dataDir: string, setUp: boolean): Promise<{ listeningMs: number; idleMb: number }> {
  const started = performance.now();
  const { child, match } = await spawnNodeMatch([path.join(ROOT, 'dist/server.js')], /listening on http:\/\/127\.0\.0\.1:(\d+)/, {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  });
  track(child);
  const listeningMs = performance.now() - started;
  if (setUp) {
    // Set up once, so that every start after it is a start of an appliance in use (no setup window).
    const res = await fetch(`http://127.0.0.1:${match[1]}/api/v1/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'owner', password: 'owner-password-1' }),
    });
    if (res.status !== 200) throw new Error(`setup answered ${res.status}`);
  }
  await sleep(IDLE_MS);
  const idleMb = treeRssMb(child.pid!);
  await stopChild(child);
  return { listeningMs, idleMb };
}

async function desktopApp(
  userData: string,
  dataDir: string,
  hidden: boolean,
): Promise<{ serverReadyMs: number; consoleReadyMs: number | null; idleMb: number | null }> {
  const started = performance.now();
  const app: RunningApp = launch(ROOT, userData, dataDir, hidden ? ['--hidden'] : [], { MEDIA_WORKERS_AT_START: '1', PORT: '0' });
  track(app.child);
  try {
    await app.waitFor('the tray', (r) => r.menu.length > 0, 60_000);
    const serverReadyMs = performance.now() - started;
    let consoleReadyMs: number | null = null;
    if (!hidden) {
      await app.waitFor('the window loaded', (r) => r.windows[0]?.visible && r.windows[0].url?.startsWith('http://127.0.0.1:'), 60_000);
      consoleReadyMs = performance.now() - started;
    }
    let idleMb: number | null = null;
    if (hidden) {
      await sleep(IDLE_MS);
      if ((await app.records()).windows.length > 0) throw new Error('the app started at login opened a window');
      idleMb = treeRssMb(app.child.pid!);
    }
    await app.command('quit');
    await app.exited;
    return { serverReadyMs, consoleReadyMs, idleMb };
  } finally {
    if (app.child.exitCode === null) app.child.kill('SIGKILL');
  }
}

export async function benchAppliance(): Promise<BenchResult> {
  log('  building the server bundle and the desktop app');
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
  execFileSync('npm', ['run', '--silent', 'build:desktop'], { cwd: ROOT, stdio: 'inherit' });
  const work = await tempDir('hearth-bench-appliance-');
  const userData = path.join(work, 'userData');
  fs.mkdirSync(userData);
  const bare: { listeningMs: number; idleMb: number }[] = [];
  const hidden: { serverReadyMs: number; idleMb: number }[] = [];
  const windowed: { serverReadyMs: number; consoleReadyMs: number }[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    log(`  round ${round}/${ROUNDS}: npm start, the app in the tray (idle ${IDLE_MS / 1000} s), the app with its window`);
    // One data folder for all: after the first round both start on a set-up server with the same data.
    const b = await bareServer(path.join(work, 'data'), round === 1);
    bare.push(b);
    const h = await desktopApp(userData, path.join(work, 'data'), true);
    hidden.push({ serverReadyMs: h.serverReadyMs, idleMb: h.idleMb! });
    const w = await desktopApp(userData, path.join(work, 'data'), false);
    windowed.push({ serverReadyMs: w.serverReadyMs, consoleReadyMs: w.consoleReadyMs! });
  }
  const ref = median(bare.map((b) => b.listeningMs));
  const bareMb = median(bare.map((b) => b.idleMb));
  const appMb = median(hidden.map((h) => h.idleMb));
  return {
    name: 'appliance',
    rows: [
      {
        figure: 'app start to server ready (tray up)',
        value: median(hidden.map((h) => h.serverReadyMs)),
        reference: ref,
        unit: 'ms',
        better: 'lower',
        referenceIs: '`npm start` (node dist/server.js) to its listening line, same data, medians',
      },
      {
        figure: 'app start to console ready (window loaded)',
        value: median(windowed.map((w) => w.consoleReadyMs)),
        reference: ref,
        unit: 'ms',
        better: 'lower',
        referenceIs: '`npm start` to listening, as above',
      },
      {
        figure: 'idle memory of the hosting processes, no window',
        value: appMb,
        reference: bareMb,
        unit: 'MB',
        better: 'lower',
        referenceIs: 'the bare server (node dist/server.js) idle with its media worker, RSS of the process tree',
      },
    ],
    notes: [
      `idle memory beyond the bare server: ${(appMb - bareMb).toFixed(0)} MB (goal: at most 150 MB). Main and the server's utility process are Node 24 processes here; ` +
        "real Electron's main also carries Chromium's browser process, which only the real binary can measure.",
      'The console ready time includes starting Debian Chromium for the window (the double); in Electron the browser is already part of the app.',
      'Lighthouse on the console pages comes with the pages (renderer/).',
    ],
  };
}
