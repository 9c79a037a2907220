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
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(
      serious.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      `${name} in ${scheme}`,
    ).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
