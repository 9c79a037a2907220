import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page, type TestInfo } from '@playwright/test';

export const SCREENSHOTS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'screenshots');

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
    // Legacy mode runs axe.run() in the page itself. The default splits the run per frame and
    // finishes it in a new blank tab, with axe injected there again: the same results for the
    // app's one frame (no iframes), at about twice the time (e2e/screens.spec.ts, 56 checks:
    // 2.7-3.0 s each, 1.5-1.7 s in legacy mode) over some 800 checks a run.
    const results = await new AxeBuilder({ page }).setLegacyMode().withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(
      serious.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      `${name} in ${scheme}`,
    ).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
