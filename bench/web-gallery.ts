/**
 * The gallery of 20,000 photos in the browser: time to the first screen of thumbnails, the most
 * <img> elements in the DOM while scrolling to the end, and the longest task while scrolling,
 * each beside the same measure on a gallery of 200 photos in the same run.
 *
 * Seeding: 20,000 real uploads would take most of an hour here, so each account gets 200 real
 * small JPEGs (tus uploads; the server reads their capture times and makes their thumbnails),
 * and the large one then gets 19,800 more photos cloned from those through the server's own
 * store, against the running server's data dir: each clone a node and a version of its own
 * (sharing its source's content blob), processed (size, capture time, has_thumbnail) as the
 * media queue would leave it, with its own thumbnail file (a hard link to its source's). Capture
 * times spread over five years, so the timeline has 60 months of about 333 photos. Then the
 * family timeline of 20,000 own and 20,000 shared photos (web-family.ts).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from '@playwright/test';
import sharp from 'sharp';
import * as tus from 'tus-js-client';
import { nameColumns } from '../server/src/services/files/nodes.ts';
import { newId } from '../server/src/services/common/secrets.ts';
import { openDatabase } from '../server/src/store/database/db.ts';
import { createStore } from '../server/src/store/index.ts';
import { NO_FACTS } from '../server/src/store/database/media.repo.ts';
import { ThumbnailStore } from '../server/src/store/content/thumbs.ts';
import { createMember, setupOwner, type SignedIn } from '../server/test/helpers/accounts.ts';
import { log, type BenchResult } from './lib/report.ts';
import { benchFamilyTimeline } from './web-family.ts';
import { startBenchServer, type BenchServer } from './lib/server.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = process.env.CHROME_PATH ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const LARGE = Number(process.env.GALLERY_BENCH_PHOTOS ?? 20_000);
const REAL = 200;
const FIRST = Date.UTC(2020, 0, 1);
const LAST = Date.UTC(2024, 11, 31, 23);

export async function benchWebGallery(): Promise<BenchResult> {
  const notes: string[] = [];
  if (!fs.existsSync(CHROMIUM)) {
    notes.push(`no Chromium at ${CHROMIUM}: gallery figures skipped (apt install chromium, or set CHROME_PATH)`);
    return { name: 'web gallery', rows: [], notes };
  }
  const built = spawnSync('npx', ['vite', 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'error'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error('the web app did not build');

  const bench = await startBenchServer({ LOG_LEVEL: 'warn', PASSWORD_HASH_COST: '4096' });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  try {
    const owner = await setupOwner(bench.client);
    const large = await createMember(bench.client, owner, 'largegallery');
    const small = await createMember(bench.client, owner, 'smallgallery');
    const t0 = performance.now();
    log(`  uploading ${REAL} real photos to each of two accounts...`);
    await Promise.all([uploadReal(bench, large), uploadReal(bench, small)]);
    const uploadedMs = performance.now() - t0;
    log(`  cloning ${(LARGE - REAL).toLocaleString()} more through the server's store...`);
    const t1 = performance.now();
    await clone(bench, large, LARGE - REAL);
    notes.push(
      `seeding: ${REAL} real tus uploads of small JPEGs per account (thumbnails and capture times by the server) in ${(uploadedMs / 1000).toFixed(0)} s, then ${(LARGE - REAL).toLocaleString()} clones through the server's store in ${((performance.now() - t1) / 1000).toFixed(1)} s`,
    );
    const months = (await bench.client.get('/nodes/gallery/months', { token: large.access })).body.items.length;
    notes.push(`the large gallery: ${LARGE.toLocaleString()} photos over ${months} months; the reference: ${REAL} photos`);

    const largeFigures = await measure(browser, bench, large, 0);
    // The reference scrolls as long as the large one did (to the end and back, again and again),
    // so the two meet the same contention from whatever else the machine is doing.
    const smallFigures = await measure(browser, bench, small, largeFigures.steps);
    notes.push(
      `phone viewport 390x844 at DPR 3; first screen: from typing /gallery (app load, session, months, first month) until every tile on it shows its thumbnail, median of ${RUNS} loads; then scrolled to the end, 90% of a screen every 50 ms (${largeFigures.steps} steps; the reference as many, back and forth)`,
    );
    notes.push(
      `goals: first thumbnails < 1000 ms, at most 400 img at once, no task over 100 ms; tiles passed while scrolling: ${largeFigures.tilesSeen.toLocaleString()} (large), ${smallFigures.tilesSeen.toLocaleString()} (reference); long tasks over 50 ms while scrolling: ${largeFigures.longTasks} (large), ${smallFigures.longTasks} (reference)`,
    );
    const ref = `the same page and measure with a gallery of ${REAL} photos`;
    // The family timeline: 20,000 own and 20,000 shared, under Everyone's (web-family.ts).
    const family = await benchFamilyTimeline(browser, bench, owner, small, smallFigures);
    notes.push(...family.notes);
    return {
      name: 'web gallery',
      rows: [
        {
          figure: `gallery ${LARGE.toLocaleString()}: first screen of thumbnails`,
          value: largeFigures.firstThumbsMs,
          reference: smallFigures.firstThumbsMs,
          unit: 'ms',
          better: 'lower',
          referenceIs: ref,
        },
        {
          figure: `gallery ${LARGE.toLocaleString()}: most img in the DOM while scrolling`,
          value: largeFigures.maxImages,
          reference: smallFigures.maxImages,
          unit: 'img',
          better: 'lower',
          referenceIs: ref,
        },
        {
          figure: `gallery ${LARGE.toLocaleString()}: longest task while scrolling`,
          value: largeFigures.longestTaskMs,
          reference: smallFigures.longestTaskMs,
          unit: 'ms',
          better: 'lower',
          referenceIs: ref,
        },
        ...family.rows,
      ],
      notes,
    };
  } finally {
    await browser.close();
    await bench.close();
  }
}

/** Photo i of REAL: a distinct colour, taken at a time spread over the five years. */
function takenAt(i: number, of: number): number {
  return FIRST + Math.floor(((LAST - FIRST) * i) / of);
}

function exifStamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ').replace(/-/g, ':');
}

async function uploadReal(bench: BenchServer, who: SignedIn): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < REAL; i = next++) {
      const jpeg = await sharp({
        create: { width: 64, height: 48, channels: 3, background: { r: (i * 53) % 256, g: (i * 97) % 256, b: (i * 31) % 256 } },
      })
        .jpeg({ quality: 70 })
        .withExif({ IFD0: { Make: 'Hearth bench' }, IFD2: { DateTimeOriginal: exifStamp(takenAt(i, REAL)) } })
        .toBuffer();
      await new Promise<void>((resolve, reject) => {
        new tus.Upload(jpeg, {
          endpoint: `${bench.server.api}/uploads`,
          headers: { Authorization: `Bearer ${who.access}` },
          metadata: { filename: `IMG_${String(i).padStart(5, '0')}.jpg` },
          retryDelays: [500, 1000, 2000],
          storeFingerprintForResuming: false,
          onError: reject,
          onSuccess: () => resolve(),
        }).start();
      });
    }
  };
  await Promise.all(Array.from({ length: 6 }, worker));
  // Until the media queue has made every thumbnail.
  for (;;) {
    const page = (await bench.client.get(`/nodes?filter=gallery&limit=1000`, { token: who.access })).body;
    if (page.items.length === REAL && page.items.every((n: { has_thumbnail: boolean }) => n.has_thumbnail)) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Where clones go and when they were taken: `who`'s top level over the five years, unless said. */
export interface CloneOptions {
  /** Whose real photos they copy (default `who`'s own). */
  from?: SignedIn;
  parentId?: string | null;
  prefix?: string;
  takenFrom?: number;
  takenTo?: number;
}

/** `count` more photos for `who`, each cloned from one of the real ones, through the server's own store; their ids. */
export async function clone(bench: BenchServer, who: SignedIn, count: number, options: CloneOptions = {}): Promise<string[]> {
  const { from = who, parentId = null, prefix = 'CLONE', takenFrom = FIRST, takenTo = LAST } = options;
  const ids: string[] = [];
  const db = openDatabase(path.join(bench.dataDir, 'hearth.db'));
  try {
    const store = createStore(db);
    const thumbs = new ThumbnailStore(path.join(bench.dataDir, 'thumbs'));
    const sources = db
      .prepare(
        `SELECT n.id, n.size, n.mime_type, n.image_width, n.image_height, v.library_id, v.blob, v.sha256
        FROM nodes n JOIN node_versions v ON v.node_id = n.id AND v.version = n.version WHERE n.owner_id = ? AND n.is_media = 1`,
      )
      .all(from.userId) as {
      id: string;
      size: number;
      mime_type: string;
      image_width: number;
      image_height: number;
      library_id: string;
      blob: string;
      sha256: string | null;
    }[];
    if (sources.length !== REAL) throw new Error(`expected ${REAL} processed photos, found ${sources.length}`);
    const links: [string, string][] = [];
    const now = Date.now();
    store.transaction(() => {
      for (let i = 0; i < count; i++) {
        const source = sources[i % sources.length]!;
        const id = newId();
        ids.push(id);
        store.nodes.insert({
          id,
          owner_id: who.userId,
          parent_id: parentId,
          type: 'file',
          ...nameColumns(`${prefix}_${String(i).padStart(5, '0')}.jpg`),
          size: source.size,
          mime_type: source.mime_type,
          version: 1,
          created_by: who.userId,
          created_at: now,
          is_media: 1,
        });
        store.versions.insert({
          id: newId(),
          node_id: id,
          version: 1,
          size: source.size,
          library_id: source.library_id,
          blob: source.blob,
          sha256: source.sha256,
          mime_type: source.mime_type,
          created_by: who.userId,
          created_at: now,
        });
        store.media.finish(
          { node_id: id, version: 1, attempts: 0, enqueued_at: now, details_only: 0 },
          {
            ...NO_FACTS,
            image_width: source.image_width,
            image_height: source.image_height,
            taken_at: takenFrom + Math.floor(((takenTo - takenFrom) * i) / count),
            has_thumbnail: true,
            state: 'done',
          },
        );
        links.push([thumbs.pathOf(source.id, 1, 512), thumbs.pathOf(id, 1, 512)]);
      }
    });
    for (const [from, to] of links) {
      fs.mkdirSync(path.dirname(to), { recursive: true });
      fs.linkSync(from, to);
    }
  } finally {
    db.close();
  }
  return ids;
}

export interface Figures {
  firstThumbsMs: number;
  maxImages: number;
  longestTaskMs: number;
  longTasks: number;
  tilesSeen: number;
  steps: number;
}

const RUNS = 3;

export async function measure(browser: Browser, bench: BenchServer, who: SignedIn, minSteps: number): Promise<Figures> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
  try {
    const page = await context.newPage();
    await signIn(page, bench, who);
    // A first visit fills the browser's cache with the app (as a phone that opened it before).
    await page.goto(`${bench.server.url}/gallery`);
    await firstScreenShown(page);
    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      await page.goto('about:blank');
      const started = performance.now();
      await page.goto(`${bench.server.url}/gallery`);
      await firstScreenShown(page);
      times.push(performance.now() - started);
    }
    const scrolled = await page.evaluate(scrollToTheEnd, minSteps);
    return { firstThumbsMs: times.sort((a, b) => a - b)[Math.floor(RUNS / 2)]!, ...scrolled };
  } finally {
    await context.close();
  }
}

export async function signIn(page: Page, bench: BenchServer, who: SignedIn): Promise<void> {
  // My files' address: the app's own opens Photos on a phone.
  await page.goto(`${bench.server.url}/files`);
  await page.getByLabel('Username').fill(who.username);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'My files' }).waitFor();
  // The session is kept just after My files shows: a page going on to another address waits for it.
  await page.waitForFunction(() => localStorage.getItem('hearth.session') !== null);
}

/** Every tile on the first screen shows its decoded thumbnail. */
async function firstScreenShown(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const tiles = [...document.querySelectorAll('.tile')].filter((tile) => tile.getBoundingClientRect().top < innerHeight);
      return (
        tiles.length > 0 &&
        tiles.every((tile) => {
          const img = tile.querySelector('img');
          return img !== null && img.complete && img.naturalWidth > 0;
        })
      );
    },
    undefined,
    { timeout: 60_000, polling: 'raf' },
  );
}

/**
 * Runs in the page: scrolls to the end (then, until `minSteps` steps are done, back up and down
 * again), counting <img> elements and watching for long tasks.
 */
async function scrollToTheEnd(minSteps: number): Promise<Omit<Figures, 'firstThumbsMs'>> {
  const tasks: number[] = [];
  const observer = new PerformanceObserver((list) => tasks.push(...list.getEntries().map((entry) => entry.duration)));
  observer.observe({ type: 'longtask', buffered: false });
  let maxImages = 0;
  const seen = new Set<string>();
  let direction = 1;
  let steps = 0;
  for (let reachedEnd = false; !reachedEnd || steps < minSteps; steps++) {
    scrollBy(0, direction * innerHeight * 0.9);
    await new Promise((resolve) => setTimeout(resolve, 50));
    maxImages = Math.max(maxImages, document.querySelectorAll('img').length);
    for (const tile of document.querySelectorAll<HTMLElement>('.tile[data-node-id]')) seen.add(tile.dataset.nodeId!);
    if (direction > 0 && scrollY + innerHeight >= document.documentElement.scrollHeight - 2) {
      reachedEnd = true;
      direction = -1;
    } else if (direction < 0 && scrollY <= 0) {
      direction = 1;
    }
    if (steps > 100_000) break;
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  observer.disconnect();
  return { maxImages, longestTaskMs: Math.max(0, ...tasks), longTasks: tasks.length, tilesSeen: seen.size, steps };
}
