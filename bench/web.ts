import fs from 'node:fs';
import { execFile } from 'node:child_process';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { chromium, type Browser, type Page } from '@playwright/test';
import sharp from 'sharp';
import { createMember, setupOwner, type SignedIn } from '../server/test/helpers/accounts.ts';
import { uploadFile } from '../server/test/helpers/upload.ts';
import { removeTempDir, tempDir } from './lib/proc.ts';
import { type BenchResult, type Row } from './lib/report.ts';
import { startBenchServer, type BenchServer } from './lib/server.ts';
import { median, percentile } from './lib/stats.ts';
import { MiB, syncDisks, tusUpload, writeNoiseFile } from './lib/transfer.ts';
import { benchWebGallery } from './web-gallery.ts';

const execFileAsync = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(ROOT, 'renderer', 'dist');
const CHROMIUM = process.env.CHROME_PATH ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const UPLOAD_BYTES = Number(process.env.WEB_BENCH_UPLOAD_MIB ?? 500) * MiB;
const UPLOAD_ROUNDS = Number(process.env.WEB_BENCH_UPLOAD_ROUNDS ?? 3);
const LIGHTHOUSE_RUNS = 3;
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
/** The chunk size the web app uses, so both clients make the same requests. */
const CHUNK = 8 * MiB;

/**
 * The web app's figures, each beside a reference measured in this run:
 * - gzip size of the JS and CSS the first screen loads (reference: all the JS and CSS built);
 * - a gallery of 20,000 photos against one of 200 (web-gallery.ts): time to the first screen of
 *   thumbnails, most <img> elements at once while scrolling to the end, longest task while scrolling;
 * - a 500 MiB upload from the browser (the app's own uploader) against tus-js-client in Node,
 *   and against the same browser's bare XHR (what Chromium itself manages);
 * - Lighthouse 12 (mobile), first visits, on sign-in, the page of a shared link, files and
 *   gallery, when the lighthouse package is there.
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

export async function bundleSize(notes: string[]): Promise<Row[]> {
  const gz = (file: string) => zlib.gzipSync(fs.readFileSync(path.join(DIST, file)), { level: 9 }).length;
  const all = (await fsp.readdir(path.join(DIST, 'assets'))).filter((f) => /\.(js|css)$/.test(f)).map((f) => `/assets/${f}`);
  const allBytes = all.reduce((sum, f) => sum + gz(f), 0);
  const rows: Row[] = [];
  // The app's page, and the page of a shared link (an entry of its own).
  for (const [page, what] of [
    ['index.html', 'first screen'],
    ['share.html', 'link page'],
  ] as const) {
    if (!fs.existsSync(path.join(DIST, page))) continue;
    const html = await fsp.readFile(path.join(DIST, page), 'utf8');
    const first = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
    const firstBytes = first.reduce((sum, f) => sum + gz(f), 0);
    // What a browser receives: the Brotli copy the build made, where there is one.
    const sent = first.reduce(
      (sum, f) =>
        sum +
        (fs.existsSync(path.join(DIST, `${f}.br`)) ? fs.statSync(path.join(DIST, `${f}.br`)).size : fs.statSync(path.join(DIST, f)).size),
      0,
    );
    notes.push(`${what} (${page}) loads ${first.join(', ')}: ${(sent / 1024).toFixed(0)} KB sent as Brotli; goal: at most 150 KB gzip`);
    rows.push({
      figure: `${what} JS+CSS (gzip)`,
      value: firstBytes / 1024,
      reference: allBytes / 1024,
      unit: 'KB',
      better: 'lower',
      referenceIs: `all ${all.length} JS and CSS files of the build, gzip`,
    });
  }
  return rows;
}

async function signedInPage(browser: Browser, bench: BenchServer, who: SignedIn): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  // My files' address: the app's own opens Photos on a phone.
  await page.goto(`${bench.server.url}/files`);
  await page.getByLabel('Username').fill(who.username);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'My files' }).waitFor();
  await page.waitForFunction(() => localStorage.getItem('hearth.session') !== null);
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
    const nodeUpload = async () =>
      (await tusUpload(`${bench.server.api}/uploads`, file, UPLOAD_BYTES, CHUNK, { Authorization: `Bearer ${who.access}` })).ms;
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
        ? [
            {
              figure: `browser upload ${UPLOAD_BYTES / MiB} MiB, own cores`,
              value: mibs(median(runs.appApart)),
              reference: mibs(median(runs.nodeApart)),
              unit: 'MiB/s',
              better: 'higher' as const,
              referenceIs: 'tus-js-client in Node, same file and chunk size; each client on core 1, the server on core 0',
            },
          ]
        : []),
      {
        figure: `browser upload ${UPLOAD_BYTES / MiB} MiB, shared cores`,
        value: app,
        reference: mibs(median(runs.node)),
        unit: 'MiB/s',
        better: 'higher',
        referenceIs: 'tus-js-client in Node, same file and chunk size, all on the same cores',
      },
      {
        figure: `browser upload ${UPLOAD_BYTES / MiB} MiB vs bare XHR`,
        value: app,
        reference: mibs(median(runs.bare)),
        unit: 'MiB/s',
        better: 'higher',
        referenceIs: 'the same Chromium sending the same chunks by bare XHR, no app and no tus-js-client',
      },
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
  const created = await fetch(`${args.api}/uploads`, {
    method: 'POST',
    headers: { ...auth, 'Upload-Length': String(file.size), 'Upload-Metadata': `filename ${btoa('bare.bin')}` },
  });
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

export type LighthouseRun = (url: string, flags: object) => Promise<{ lhr: Lhr } | undefined>;
interface Lhr {
  finalDisplayedUrl: string;
  categories: Record<string, { score: number | null }>;
  audits: Record<string, { numericValue?: number }>;
}

/** One page's scores (0-100) and timings (ms) in one Lighthouse run. */
type PageRun = Record<'performance' | 'accessibility' | 'best-practices' | 'fcp' | 'lcp' | 'tbt' | 'cls', number>;

/**
 * Lighthouse 12 (mobile preset: a mid-range phone on slow 4G), a devDependency; a
 * production-only install has none, and says so. Every run is a first visit, as a stranger's
 * phone makes it: Lighthouse's own reset before each run empties the HTTP cache, the service
 * worker and its cache (without it, the second and third runs loaded the app from the service
 * worker and read 94 for a page that a first visit scores 84). What it keeps, the browser's
 * local storage and IndexedDB, is the session: the signed-in pages are first visits of a
 * signed-in browser, the sign-in and link pages of one that has never signed in.
 */
async function lighthouse(bench: BenchServer, owner: SignedIn, notes: string[]): Promise<Row[]> {
  type Launch = (opts: object) => Promise<{ port: number; kill(): void }>;
  let run: LighthouseRun;
  let launch: Launch;
  try {
    // Named through variables: `npm install --omit=dev` has neither, and the bench still runs.
    const lhName = 'lighthouse';
    const clName = 'chrome-launcher';
    run = (await import(lhName)).default as LighthouseRun;
    launch = (await import(clName)).launch as Launch;
  } catch {
    notes.push('lighthouse: not installed (npm install --no-save lighthouse@12), Lighthouse figures skipped');
    return [];
  }
  const who = await createMember(bench.client, owner, 'lighthouse');
  const link = await sharedAlbum(bench, who, notes);
  const chrome = await launch({ chromePath: CHROMIUM, chromeFlags: ['--headless=new', ...CHROMIUM_ARGS] });
  const scores: [string, PageRun][] = [];
  try {
    const origin = bench.server.url;
    // Signed out first: the sign-in page, and the page of a link as Grandma opens it.
    scores.push(['sign-in', await medianOfRuns(run, chrome.port, `${origin}/`)]);
    scores.push(['link page', await medianOfRuns(run, chrome.port, `${origin}/s/${link}`)]);
    // Then signed in, once, through the page, as a family member's phone.
    const pw = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
    const page = pw.contexts()[0]!.pages()[0] ?? (await pw.contexts()[0]!.newPage());
    await page.goto(`${origin}/files`);
    await page.getByLabel('Username').fill(who.username);
    await page.getByLabel('Password').fill(who.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'My files' }).waitFor();
    await page.waitForFunction(() => localStorage.getItem('hearth.session') !== null);
    await page.goto('about:blank');
    await pw.close();
    scores.push(['files', await medianOfRuns(run, chrome.port, `${origin}/files`)]);
    scores.push(['gallery', await medianOfRuns(run, chrome.port, `${origin}/gallery`)]);
  } finally {
    chrome.kill();
  }
  notes.push(
    `lighthouse: mobile preset, first visits (HTTP cache, service worker and its cache emptied before each run; the session kept for files and gallery), the median of ${LIGHTHOUSE_RUNS} runs per page; the link page shows a folder of 8 photos; goal: performance >= 95 for sign-in and the link page`,
    ...scores.map(
      ([name, s]) =>
        `lighthouse ${name}: FCP ${(s.fcp / 1000).toFixed(2)} s, LCP ${(s.lcp / 1000).toFixed(2)} s, TBT ${Math.round(s.tbt)} ms, CLS ${s.cls.toFixed(3)}`,
    ),
  );
  return scores.flatMap(([name, s]) => [
    {
      figure: `lighthouse ${name}: performance`,
      value: s.performance,
      reference: 95,
      unit: 'pts',
      better: 'higher' as const,
      referenceIs: 'the goal (95)',
    },
    {
      figure: `lighthouse ${name}: accessibility`,
      value: s.accessibility,
      reference: 95,
      unit: 'pts',
      better: 'higher' as const,
      referenceIs: 'the goal (95)',
    },
    {
      figure: `lighthouse ${name}: best practices`,
      value: s['best-practices'],
      reference: 100,
      unit: 'pts',
      better: 'higher' as const,
      referenceIs: 'full marks',
    },
  ]);
}

/** Lighthouse's own advice on variability: several runs, the median of each figure. */
async function medianOfRuns(run: LighthouseRun, port: number, url: string): Promise<PageRun> {
  const runs: PageRun[] = [];
  for (let i = 0; i < LIGHTHOUSE_RUNS; i++) {
    const result = await run(url, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
    });
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    const { categories, audits, finalDisplayedUrl } = result.lhr;
    // A signed-in page that shows the sign-in page instead would measure the wrong page.
    if (new URL(finalDisplayedUrl).pathname !== new URL(url).pathname) throw new Error(`${url} ended at ${finalDisplayedUrl}`);
    const score = (key: string) => Math.round((categories[key]?.score ?? 0) * 100);
    const timing = (key: string) => audits[key]?.numericValue ?? Number.NaN;
    runs.push({
      performance: score('performance'),
      accessibility: score('accessibility'),
      'best-practices': score('best-practices'),
      fcp: timing('first-contentful-paint'),
      lcp: timing('largest-contentful-paint'),
      tbt: timing('total-blocking-time'),
      cls: timing('cumulative-layout-shift'),
    });
  }
  const keys = Object.keys(runs[0]!) as (keyof PageRun)[];
  return Object.fromEntries(
    keys.map((k) => [
      k,
      percentile(
        runs.map((r) => r[k]),
        50,
      ),
    ]),
  ) as PageRun;
}

/**
 * What a link usually opens: a folder of photos, each with its thumbnail made. Returns the
 * link's token.
 */
async function sharedAlbum(bench: BenchServer, who: SignedIn, notes: string[]): Promise<string> {
  const folder = await bench.client.post('/nodes/folder', { name: 'Summer at the lake' }, { token: who.access });
  if (folder.status !== 201) throw new Error(`folder: ${folder.status}`);
  for (let i = 0; i < 8; i++) {
    const photo = await sharp({
      create: { width: 1600, height: 1200, channels: 3, background: { r: 40 + i * 25, g: 130, b: 210 - i * 20 } },
    })
      .jpeg({ quality: 85 })
      .toBuffer();
    await uploadFile(bench.server.api, who.access, photo, { filename: `IMG_${1001 + i}.jpg`, parentId: folder.body.id });
  }
  const link = await bench.client.post(`/nodes/${folder.body.id}/share`, {}, { token: who.access });
  if (link.status !== 201) throw new Error(`link: ${link.status}`);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const items = (await bench.client.get(`/nodes?parent_id=${folder.body.id}`, { token: who.access })).body.items as {
      has_thumbnail: boolean;
    }[];
    if (items.every((n) => n.has_thumbnail)) break;
    if (Date.now() > deadline) {
      notes.push("lighthouse: the link page's photos had no thumbnails after 60 s; measured without them");
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return link.body.token as string;
}
