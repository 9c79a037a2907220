/**
 * `npm run bench -- console`: the owner's console in Lighthouse 12 with the desktop preset
 * (the Electron window and an owner's laptop), each page against the sign-in page measured in
 * the same run, in the same Chromium, on the same server. Goals: performance >= 95 and
 * accessibility >= 95 on every console page.
 *
 * The web app is built first (the production bundle is what is measured). The console needs an
 * owner signed in: the bench signs in once through the sign-in page, then Lighthouse keeps that
 * browser's storage between pages (disableStorageReset), as an owner's browser would.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium } from '@playwright/test';
import { createMember, setupOwner, OWNER } from '../server/test/helpers/accounts.ts';
import { log, type BenchResult, type Row } from './lib/report.ts';
import { startBenchServer } from './lib/server.ts';
import { median } from './lib/stats.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = process.env.CHROME_PATH ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ROUNDS = 3;
const GOAL = 95;
const PAGES = ['devices', 'people', 'storage', 'connect', 'settings', 'status'] as const;

interface Scores {
  performance: number;
  accessibility: number;
  /** Largest contentful paint, simulated for the preset: a figure that still moves when the score is 100. */
  lcpMs: number;
  /** Layout shift and blocking time: what takes a score under 100 when the paint is quick. */
  cls: number;
  tbtMs: number;
}

async function audit(url: string, port: number, keepStorage: boolean): Promise<Scores & { failing: string[] }> {
  const result = await lighthouse(
    url,
    { port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'], disableStorageReset: keepStorage },
    desktopConfig,
  );
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { categories, audits, finalDisplayedUrl } = result.lhr;
  if (new URL(finalDisplayedUrl).pathname !== new URL(url).pathname)
    throw new Error(`${url} ended at ${finalDisplayedUrl}: not signed in?`);
  const failing = Object.values(audits)
    .filter(
      (a) =>
        a.score !== null &&
        a.score < 1 &&
        (a.scoreDisplayMode === 'binary' || a.scoreDisplayMode === 'numeric') &&
        categories.accessibility!.auditRefs.some((r) => r.id === a.id && r.weight > 0),
    )
    .map((a) => a.id);
  return {
    performance: Math.round((categories.performance!.score ?? 0) * 100),
    accessibility: Math.round((categories.accessibility!.score ?? 0) * 100),
    lcpMs: audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
    cls: audits['cumulative-layout-shift']?.numericValue ?? Number.NaN,
    tbtMs: audits['total-blocking-time']?.numericValue ?? Number.NaN,
    failing,
  };
}

export async function benchConsole(): Promise<BenchResult> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM} (apt install chromium; or set CHROME_PATH)`);
  const built = spawnSync('npx', ['vite', 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error('the web app did not build');

  const server = await startBenchServer({ LOG_LEVEL: 'warn' });
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  try {
    const owner = await setupOwner(server.client);
    for (const name of ['grandma', 'alex', 'sam']) await createMember(server.client, owner, name);
    for (const label of ['Uncle Joe', 'Cousin Amy']) await server.client.post('/admin/invites', { label }, { token: owner.access });
    const origin = server.server.url;

    // The reference first, signed out, in the same browser.
    const reference: Scores[] = [];
    for (let i = 0; i < ROUNDS; i++) reference.push(await audit(`${origin}/`, chrome.port, false));

    // Sign in once, as an owner would; the console pages then open signed in.
    const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
    const page = await browser.contexts()[0]!.newPage();
    await page.goto(`${origin}/files`);
    await page.getByLabel('Username').fill(OWNER.username);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'My files' }).waitFor();
    await page.waitForFunction(() => localStorage.getItem('hearth.session') !== null);
    await page.close();
    await browser.close().catch(() => undefined);

    const rows: Row[] = [];
    const notes: string[] = [];
    const refPerf = median(reference.map((r) => r.performance));
    const refA11y = median(reference.map((r) => r.accessibility));
    const refLcp = median(reference.map((r) => r.lcpMs));
    for (const name of PAGES) {
      const runs: (Scores & { failing: string[] })[] = [];
      for (let i = 0; i < ROUNDS; i++) runs.push(await audit(`${origin}/console/${name}`, chrome.port, true));
      const perf = median(runs.map((r) => r.performance));
      const a11y = median(runs.map((r) => r.accessibility));
      const lcp = median(runs.map((r) => r.lcpMs));
      log(
        `  /console/${name}: performance ${runs.map((r) => r.performance).join(', ')}; LCP ${Math.round(lcp)} ms; CLS ${runs.map((r) => r.cls.toFixed(3)).join(', ')}; TBT ${runs.map((r) => Math.round(r.tbtMs)).join(', ')} ms; accessibility ${a11y}`,
      );
      rows.push({
        figure: `console ${name}: Lighthouse performance`,
        value: perf,
        reference: refPerf,
        unit: 'pts',
        better: 'higher',
        referenceIs: `the sign-in page, median of ${ROUNDS}, desktop preset`,
      });
      rows.push({
        figure: `console ${name}: largest contentful paint`,
        value: lcp,
        reference: refLcp,
        unit: 'ms',
        better: 'lower',
        referenceIs: `the sign-in page, median of ${ROUNDS}, simulated desktop throttling`,
      });
      rows.push({
        figure: `console ${name}: Lighthouse accessibility`,
        value: a11y,
        reference: refA11y,
        unit: 'pts',
        better: 'higher',
        referenceIs: 'the sign-in page, desktop preset',
      });
      if (perf < GOAL || a11y < GOAL)
        notes.push(
          `/console/${name} is under the goal of ${GOAL} (performance ${perf}, accessibility ${a11y}${runs[0]!.failing.length ? `; failing: ${runs[0]!.failing.join(', ')}` : ''})`,
        );
    }
    notes.push(
      `goals: performance >= ${GOAL}, accessibility >= ${GOAL} on every console page; ${notes.length === 0 ? 'all met' : 'see above'}`,
    );
    notes.push('Lighthouse 12, desktop preset (simulated throttling: 40 ms RTT, 10 Mbps, no CPU slowdown), median of 3 runs per page');
    return { name: 'console', rows, notes };
  } finally {
    await chrome.kill();
    await server.close();
  }
}
