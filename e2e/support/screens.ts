import fs from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AxeResults, RunOptions } from 'axe-core';
import { expect, type Page, type TestInfo } from '@playwright/test';

export const SCREENSHOTS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'screenshots');

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const AXE_OPTIONS: RunOptions = {
  runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
  // Every violation with all its nodes; passes and the rest are not gathered (axe spends most
  // of a run making selectors for them).
  resultTypes: ['violations'],
};

/**
 * axe-core run in the page itself, injected once per document. @axe-core/playwright's
 * AxeBuilder did the same work at two to three times the cost: it injected the 580 KB script
 * twice per check, and by default finished each run in a new blank tab (e2e/screens.spec.ts,
 * phone: 2.7 s a check with AxeBuilder, 1.0 s in its legacy mode, 0.4 s here). The app has no
 * iframes, so the page's own frame is all there is to check.
 */
async function axeViolations(page: Page): Promise<AxeResults['violations']> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page
    .evaluate(
      (options) =>
        (window as unknown as { axe: { run(context: Document, options: RunOptions): Promise<AxeResults> } }).axe.run(document, options),
      AXE_OPTIONS,
    )
    .then((results) => results.violations);
}

/**
 * Photographs a screen in light and dark (kept under e2e/screenshots, CI's artifacts) and
 * checks it with axe: no serious or critical accessibility violation in either scheme.
 */
export async function captureScreen(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await fs.mkdir(SCREENSHOTS, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    // Let fonts and the scheme's colours settle.
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${testInfo.project.name}-${scheme}.png`), animations: 'disabled' });
    const serious = (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(
      serious.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      `${name} in ${scheme}`,
    ).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
