import fs from 'node:fs';
import { execFile } from 'node:child_process';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { chromium, type Browser, type Page } from '@playwright/test';
import { createMember, setupOwner, type SignedIn } from '../server/test/helpers/accounts.ts';
import { removeTempDir, tempDir } from './lib/proc.ts';
import { type BenchResult, type Row } from './lib/report.ts';
import { startBenchServer, type BenchServer } from './lib/server.ts';
import { percentile } from './lib/stats.ts';
import { MiB, syncDisks, tusUpload, writeNoiseFile } from './lib/transfer.ts';
import { benchWebGallery } from './web-gallery.ts';

const execFileAsync = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(ROOT, 'renderer', 'dist');
const CHROMIUM = process.env.CHROME_PATH ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const UPLOAD_BYTES = Number(process.env.WEB_BENCH_UPLOAD_MIB ?? 500) * MiB;
const UPLOAD_ROUNDS = Number(process.env.WEB_BENCH_UPLOAD_ROUNDS ?? 3);
const LIGHTHOUSE_RUNS = 3;
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
/** The chunk size the web app uses, so both clients make the same requests. */
const CHUNK = 8 * MiB;

/**
 * The web app's figures, each beside a reference measured in this run:
 * - gzip size of the JS and CSS the first screen loads (reference: all the JS and CSS built);
 * - a gallery of 20,000 photos against one of 200 (web-gallery.ts): time to the first screen of
 *   thumbnails, most <img> elements at once while scrolling to the end, longest task while scrolling;
 * - a 500 MiB upload from the browser (the app's own uploader) against tus-js-client in Node,
 *   and against the same browser's bare XHR (what Chromium itself manages);
 * - Lighthouse 12 (mobile) on sign-in, files and gallery, when the lighthouse package is there.
 */
export async function benchWeb(): Promise<BenchResult> {
  const rows: Row[] = [];
  const notes: string[] = [];
  if (!fs.existsSync(path.join(DIST, 'index.html'))) throw new Error('renderer/dist is missing: run npm run build:web first');
  rows.push(...(await bundleSize(notes)));
  if (!fs.existsSync(CHROMIUM)) {
    notes.push(`no Chromium at ${CHROMIUM}: browser figures skipped (apt install chromium, or set CHROME_PATH)`);
    return { name: 'web', rows, notes };
  }
  // The gallery's figures keep their own file (web-gallery.ts), server and seeding.
  const gallery = await benchWebGallery();
  rows.push(...gallery.rows);
  notes.push(...gallery.notes);
  const bench = await startBenchServer({ LOG_LEVEL: 'warn', PASSWORD_HASH_COST: '4096' });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const owner = await setupOwner(bench.client);
    rows.push(...(await upload(bench, browser, owner, notes)));
    rows.push(...(await lighthouse(bench, owner, notes)));
  } finally {
    await browser.close();
    await bench.close();
  }
  return { name: 'web', rows, notes };
}

async function bundleSize(notes: string[]): Promise<Row[]> {
  const html = await fsp.readFile(path.join(DIST, 'index.html'), 'utf8');
  const first = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
  const gz = (file: string) => zlib.gzipSync(fs.readFileSync(path.join(DIST, file)), { level: 9 }).length;
  const firstBytes = first.reduce((sum, f) => sum + gz(f), 0);
  const all = (await fsp.readdir(path.join(DIST, 'assets'))).filter((f) => /\.(js|css)$/.test(f)).map((f) => `/assets/${f}`);
  const allBytes = all.reduce((sum, f) => sum + gz(f), 0);
  notes.push(`first screen loads ${first.join(', ')}; goal: at most 150 KB gzip`);
  return [
    { figure: 'first-screen JS+CSS (gzip)', value: firstBytes / 1024, reference: allBytes / 1024, unit: 'KB', better: 'lower', referenceIs: `all ${all.length} JS and CSS files of the build, gzip` },
  ];
}

async function signedInPage(browser: Browser, bench: BenchServer, who: SignedIn): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.goto(bench.server.url);
  await page.getByLabel('Username').fill(who.username);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'My files' }).waitFor();
  return page;
}

async function upload(bench: BenchServer, browser: Browser, owner: SignedIn, notes: string[]): Promise<Row[]> {
  const who = await createMember(bench.client, owner, 'uploader');
  const work = await tempDir('hearth-bench-web-');
  const pinned = await pinnedChromium(work);
  try {
    const file = path.join(work, 'video.bin');
    await writeNoiseFile(file, UPLOAD_BYTES);
    const runs = { node: [] as number[], app: [] as number[], bare: [] as number[], nodeApart: [] as number[], appApart: [] as number[] };
    const nodeUpload = async () => (await tusUpload(`${bench.server.api}/uploads`, file, UPLOAD_BYTES, CHUNK, { Authorization: `Bearer ${who.access}` })).ms;
    // Interleaved rounds, each upload after a sync: one upload's writeback never lands in the
    // next one's time, and a slow spell of the machine touches every client alike.
    for (let round = 0; round < UPLOAD_ROUNDS; round++) {
      await syncDisks();
      runs.node.push(await nodeUpload());
      await syncDisks();
      runs.app.push(await appUpload(bench, browser, who, file, work, `shared-${round}`));
      await syncDisks();
      runs.bare.push(await bareUpload(bench, browser, who, file));
      if (!pinned) continue;
      // As on the home network, where the client is a phone: the server keeps one core, and
      // the client (this process, or every Chromium process) gets the other.
      await pinCores(bench.pid, '0');
      await pinCores(process.pid, '1');
      try {
        await syncDisks();
        runs.nodeApart.push(await nodeUpload());
        await syncDisks();
        runs.appApart.push(await appUpload(bench, pinned.browser, who, file, work, `apart-${round}`));
      } finally {
        await pinCores(bench.pid, ALL_CORES);
        await pinCores(process.pid, ALL_CORES);
      }
    }
    const speeds = (list: number[]) => list.map((ms) => mibs(ms).toFixed(0)).join(', ');
    notes.push(
      `upload: ${UPLOAD_BYTES / MiB} MiB of noise from a file, ${CHUNK / MiB} MiB chunks for every client, median of ${UPLOAD_ROUNDS} interleaved rounds; ` +
        `the app's time runs from choosing the file (its folder check included) to "uploaded"; goal: the app at >= 0.7x the Node client's speed`,
      `upload, shared cores (server, client and Chromium's 4 processes on the same 2 cores), MiB/s: app ${speeds(runs.app)}; Node ${speeds(runs.node)}; bare XHR ${speeds(runs.bare)}`,
      pinned
        ? `upload, own cores (server pinned to core 0, the client to core 1 with taskset, as a phone and the PC are apart), MiB/s: app ${speeds(runs.appApart)}; Node ${speeds(runs.nodeApart)}`
        : 'upload, own cores: skipped (no taskset; Debian: apt install util-linux)',
    );
    const app = mibs(median(runs.app));
    return [
      ...(pinned
        ? [{ figure: `browser upload ${UPLOAD_BYTES / MiB} MiB, own cores`, value: mibs(median(runs.appApart)), reference: mibs(median(runs.nodeApart)), unit: 'MiB/s', better: 'higher' as const, referenceIs: 'tus-js-client in Node, same file and chunk size; each client on core 1, the server on core 0' }]
        : []),
      { figure: `browser upload ${UPLOAD_BYTES / MiB} MiB, shared cores`, value: app, reference: mibs(median(runs.node)), unit: 'MiB/s', better: 'higher', referenceIs: 'tus-js-client in Node, same file and chunk size, all on the same cores' },
      { figure: `browser upload ${UPLOAD_BYTES / MiB} MiB vs bare XHR`, value: app, reference: mibs(median(runs.bare)), unit: 'MiB/s', better: 'higher', referenceIs: 'the same Chromium sending the same chunks by bare XHR, no app and no tus-js-client' },
    ];
  } finally {
    await pinned?.browser.close();
    await removeTempDir(work);
  }
}

const ALL_CORES = `0-${os.cpus().length - 1}`;

/** Sets the CPU cores of a process and all its threads. */
async function pinCores(pid: number, cores: string): Promise<void> {
  await execFileAsync('taskset', ['-a', '-p', '-c', cores, String(pid)]);
}

/** A second Chromium whose every process runs on core 1 (launched through taskset); null without taskset. */
async function pinnedChromium(work: string): Promise<{ browser: Browser } | null> {
  try {
    await execFileAsync('taskset', ['-c', '1', 'true']);
  } catch {
    return null;
  }
  const launcher = path.join(work, 'chromium-on-core-1');
  await fsp.writeFile(launcher, `#!/bin/sh\nexec taskset -c 1 ${JSON.stringify(CHROMIUM)} "$@"\n`, { mode: 0o755 });
  return { browser: await chromium.launch({ executablePath: launcher, args: CHROMIUM_ARGS }) };
}

const mibs = (ms: number) => UPLOAD_BYTES / MiB / (ms / 1000);
const median = (values: number[]) => percentile(values, 50);

/** One upload through the app, in a new page: ms from choosing the file to "1 file uploaded". */
async function appUpload(bench: BenchServer, browser: Browser, who: SignedIn, file: string, work: string, label: string): Promise<number> {
  // A name of its own each round: no earlier round's file stands in the way.
  const named = path.join(work, `video-${label}.bin`);
  await fsp.link(file, named);
  const page = await signedInPage(browser, bench, who);
  try {
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    const started = performance.now();
    await (await chooser).setFiles(named);
    await page.getByText('1 file uploaded').waitFor({ timeout: 600_000 });
    return performance.now() - started;
  } finally {
    await page.context().close();
  }
}

/** The same chunks sent by Chromium with nothing of ours in between: what this browser can do. */
async function bareUpload(bench: BenchServer, browser: Browser, who: SignedIn, file: string): Promise<number> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    // Same origin as the API; a file input is all the page holds.
    await page.goto(`${bench.server.api}/status`);
    await page.setContent('<input type="file" aria-label="File">');
    await page.getByLabel('File').setInputFiles(file);
    return await page.evaluate(xhrPatches, { api: bench.server.api, token: who.access, chunk: CHUNK });
  } finally {
    await context.close();
  }
}

/** Runs in the page: a tus upload of the chosen file, one XHR PATCH of a File slice per chunk. */
async function xhrPatches(args: { api: string; token: string; chunk: number }): Promise<number> {
  const file = document.querySelector('input')!.files![0]!;
  const auth = { Authorization: `Bearer ${args.token}`, 'Tus-Resumable': '1.0.0' };
  const started = performance.now();
  const created = await fetch(`${args.api}/uploads`, { method: 'POST', headers: { ...auth, 'Upload-Length': String(file.size), 'Upload-Metadata': `filename ${btoa('bare.bin')}` } });
  const url = new URL(created.headers.get('Location')!, location.href).href;
  for (let offset = 0; offset < file.size; offset += args.chunk) {
    const status = await new Promise<number>((resolve) => {
      const xhr = new XMLHttpRequest();
      xhr.open('PATCH', url);
      for (const [name, value] of Object.entries(auth)) xhr.setRequestHeader(name, value);
      xhr.setRequestHeader('Upload-Offset', String(offset));
      xhr.setRequestHeader('Content-Type', 'application/offset+octet-stream');
      xhr.addEventListener('loadend', () => resolve(xhr.status));
      xhr.send(file.slice(offset, Math.min(file.size, offset + args.chunk)));
    });
    if (status !== 204) throw new Error(`PATCH at ${offset} answered ${status}`);
  }
  return performance.now() - started;
}

/** Lighthouse 12 (mobile preset), a devDependency; a production-only install has none, and says so. */
async function lighthouse(bench: BenchServer, owner: SignedIn, notes: string[]): Promise<Row[]> {
  type Run = (url: string, flags: object) => Promise<{ lhr: { categories: Record<string, { score: number | null }> } } | undefined>;
  type Launch = (opts: object) => Promise<{ port: number; kill(): void }>;
  let run: Run;
  let launch: Launch;
  try {
    // Named through variables: `npm install --omit=dev` has neither, and the bench still runs.
    const lhName = 'lighthouse';
    const clName = 'chrome-launcher';
    run = (await import(lhName)).default as Run;
    launch = (await import(clName)).launch as Launch;
  } catch {
    notes.push('lighthouse: not installed (npm install --no-save lighthouse@12), Lighthouse figures skipped');
    return [];
  }
  const who = await createMember(bench.client, owner, 'lighthouse');
  const chrome = await launch({ chromePath: CHROMIUM, chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'] });
  const rows: Row[] = [];
  try {
    // The files and gallery pages need a signed-in browser: sign in once in that Chrome, keep its storage.
    const pw = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
    const page = pw.contexts()[0]!.pages()[0] ?? (await pw.contexts()[0]!.newPage());
    const scores: Record<string, Record<string, number>> = {};
    for (const [name, route, signIn] of [['sign-in', '/', false], ['files', '/files', true], ['gallery', '/gallery', true]] as const) {
      if (signIn && page.url().indexOf('/files') < 0) {
        await page.goto(bench.server.url);
        await page.getByLabel('Username').fill(who.username);
        await page.getByLabel('Password').fill(who.password);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('heading', { name: 'My files' }).waitFor();
      }
      // Lighthouse's own advice on variability: several runs, the median of each score.
      const runs: Record<string, number>[] = [];
      for (let i = 0; i < LIGHTHOUSE_RUNS; i++) {
        const result = await run(`${bench.server.url}${route}`, { port: chrome.port, output: 'json', logLevel: 'error', disableStorageReset: true, onlyCategories: ['performance', 'accessibility', 'best-practices'] });
        runs.push(Object.fromEntries(Object.entries(result!.lhr.categories).map(([k, v]) => [k, Math.round((v.score ?? 0) * 100)])));
      }
      scores[name] = Object.fromEntries(Object.keys(runs[0]!).map((k) => [k, percentile(runs.map((r) => r[k]!), 50)]));
    }
    await pw.close();
    notes.push(`lighthouse: mobile preset, the median of ${LIGHTHOUSE_RUNS} runs per page`);
    for (const [name, s] of Object.entries(scores)) {
      rows.push({ figure: `lighthouse ${name}: performance`, value: s.performance!, reference: 90, unit: 'pts', better: 'higher', referenceIs: 'the goal (90)' });
      rows.push({ figure: `lighthouse ${name}: accessibility`, value: s.accessibility!, reference: 95, unit: 'pts', better: 'higher', referenceIs: 'the goal (95)' });
      rows.push({ figure: `lighthouse ${name}: best practices`, value: s['best-practices']!, reference: 100, unit: 'pts', better: 'higher', referenceIs: 'full marks' });
    }
  } finally {
    chrome.kill();
  }
  return rows;
}

