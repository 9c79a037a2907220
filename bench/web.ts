import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { chromium, type Browser, type Page } from '@playwright/test';
import { createMember, setupOwner, type SignedIn } from '../server/test/helpers/accounts.ts';
import { removeTempDir, tempDir } from './lib/proc.ts';
import { type BenchResult, type Row } from './lib/report.ts';
import { startBenchServer, type BenchServer } from './lib/server.ts';
import { percentile } from './lib/stats.ts';
import { MiB, tusUpload, writeNoiseFile } from './lib/transfer.ts';
import { benchWebGallery } from './web-gallery.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(ROOT, 'renderer', 'dist');
const CHROMIUM = process.env.CHROME_PATH ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const UPLOAD_BYTES = Number(process.env.WEB_BENCH_UPLOAD_MIB ?? 500) * MiB;
const LIGHTHOUSE_RUNS = 3;
/** The chunk size the web app uses, so both clients make the same requests. */
const CHUNK = 8 * MiB;

/**
 * The web app's figures, each beside a reference measured in this run:
 * - gzip size of the JS and CSS the first screen loads (reference: all the JS and CSS built);
 * - a gallery of 20,000 photos against one of 200 (web-gallery.ts): time to the first screen of
 *   thumbnails, most <img> elements at once while scrolling to the end, longest task while scrolling;
 * - a 500 MiB upload from the browser (the app's own uploader) against tus-js-client in Node;
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
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
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
  try {
    const file = path.join(work, 'video.bin');
    await writeNoiseFile(file, UPLOAD_BYTES);
    const node = await tusUpload(`${bench.server.api}/uploads`, file, UPLOAD_BYTES, CHUNK, { Authorization: `Bearer ${who.access}` });
    const page = await signedInPage(browser, bench, who);
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload' }).click();
    const started = performance.now();
    await (await chooser).setFiles(file);
    // The file already exists under its name: answer "keep both" so the same bytes travel again.
    const clash = page.getByRole('dialog', { name: /already here/ });
    await Promise.race([clash.waitFor({ timeout: 5_000 }).then(() => page.getByRole('button', { name: /Keep both/ }).click()), page.getByText('1 file uploaded').waitFor({ timeout: 5_000 })]).catch(() => undefined);
    await page.getByText('1 file uploaded').waitFor({ timeout: 600_000 });
    const browserMs = performance.now() - started;
    await page.context().close();
    notes.push(`upload: ${UPLOAD_BYTES / MiB} MiB of noise from a file, ${CHUNK / MiB} MiB chunks both ways; browser time runs from choosing the file (including the app's folder check and the name question) to "uploaded"; goal: browser at >= 0.7x the Node client's speed`);
    const mibs = (ms: number) => UPLOAD_BYTES / MiB / (ms / 1000);
    return [{ figure: `browser upload ${UPLOAD_BYTES / MiB} MiB (speed)`, value: mibs(browserMs), reference: mibs(node.ms), unit: 'MiB/s', better: 'higher', referenceIs: 'tus-js-client in Node, same file, same chunk size' }];
  } finally {
    await removeTempDir(work);
  }
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

