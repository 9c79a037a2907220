import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

/**
 * "Back up this phone" on a phone; on a computer (no such button there) More, then Back up
 * photos; then the files chosen in the picker. Told by the project, not by what is on screen:
 * just after a tap on Photos the page can still be My files, whose Upload made a phone look like
 * a computer.
 */
export async function chooseForBackup(page: Page, files: string[]): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await expect(page.getByRole('heading', { level: 1, name: 'Photos' })).toBeVisible();
  if (test.info().project.use.isMobile) {
    await page.getByRole('button', { name: 'Back up this phone' }).locator('visible=true').first().click();
  } else {
    await page.getByRole('button', { name: 'More', exact: true }).click();
    await page.getByRole('button', { name: 'Back up photos' }).click();
  }
  await (await chooser).setFiles(files);
}

/** "November 2026": the month a photo with no date would wrongly be put under. */
export const thisMonth = () => new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date());
