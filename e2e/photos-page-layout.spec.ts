import type { Page } from '@playwright/test';
import { expect, mainNav, signIn, test } from './support/fixtures.ts';
import type { Account, Hearth } from './support/hearth.ts';
import { photo, processed, upload } from './support/media.ts';
import { captureScreen } from './support/screens.ts';

/* Issue 32, item 5: the Photos page is photos first, with one main button and no cut words. */

async function fiftyPhotos(hearth: Hearth, who: Account): Promise<void> {
  const ids: string[] = [];
  const months: [number, number, number][] = [
    [2025, 6, 14],
    [2024, 12, 10],
    [2022, 8, 10],
    [2019, 4, 8],
    [2016, 9, 8],
  ];
  for (const [year, month, count] of months) {
    for (let i = 0; i < count; i++) {
      const when = `${year}:${String(month).padStart(2, '0')}:${String(1 + i).padStart(2, '0')} 10:00:00`;
      ids.push(await upload(hearth.api, who, await photo(when), `p-${year}-${month}-${i + 1}.jpg`));
    }
  }
  await processed(hearth.api, who, ids);
}

/** Visible buttons drawn as the main (primary) one. */
function primaryButtons(page: Page) {
  return page.locator('main .btn-primary:visible');
}

test('Photos first: one main button (Back up this phone on a phone, Upload on a computer), the first photo high on a phone, no cut words in the selection bar', async ({
  page,
  member,
  hearth,
}, testInfo) => {
  test.setTimeout(150_000);
  await fiftyPhotos(hearth, member);
  await signIn(page, member);
  await mainNav(page).getByRole('link', { name: 'Photos' }).click();
  await expect(page.getByText('50 photos')).toBeVisible();
  await expect(page.locator('.tile img').first()).toBeVisible();
  const phone = testInfo.project.name.startsWith('phone');

  await expect(primaryButtons(page)).toHaveCount(1);
  await expect(primaryButtons(page)).toHaveAccessibleName(phone ? 'Back up this phone' : 'Upload');
  if (phone) {
    const first = (await page.locator('.tile').first().boundingBox())!;
    expect(first.y, 'the first photo starts above the middle of the screen').toBeLessThan(422);
    // The scrubber's handle is not drawn over the search.
    const search = (await page.getByRole('searchbox').boundingBox())!;
    const handle = (await page.locator('.scrubber-thumb').boundingBox())!;
    expect(handle.y).toBeGreaterThanOrEqual(search.y + search.height);
    // Upload is one tap away, under Add photos.
    await page.getByRole('button', { name: 'Add photos', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Upload', exact: true })).toBeVisible();
  } else {
    await expect(page.getByRole('button', { name: 'Back up this phone' })).toHaveCount(0);
    await page.getByRole('button', { name: 'More', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Back up a folder' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Back up photos' })).toBeVisible();
  }
  await page.keyboard.press('Escape');
  await captureScreen(page, testInfo, 'photos-page');

  // The selection's actions say their words whole.
  await page.getByRole('button', { name: 'Select', exact: true }).click();
  await page.getByRole('button', { name: /^Select all of June 2025/ }).click();
  await expect(page.getByRole('heading', { name: '14 selected' })).toBeVisible();
  const bar = page.getByRole('toolbar', { name: 'Selected photos' });
  // A smaller phone too (360 wide, as many Android phones): still whole words.
  if (phone) await page.setViewportSize({ width: 360, height: 780 });
  const cut = await bar
    .locator('button span:visible')
    .evaluateAll((spans) =>
      spans.filter((s) => s.scrollWidth > s.clientWidth).map((s) => `${s.textContent} ${s.scrollWidth}>${s.clientWidth}`),
    );
  expect(cut, 'labels cut short').toEqual([]);
  await expect(bar.getByText('Download', { exact: true }).locator('visible=true')).toHaveCount(1);
  await captureScreen(page, testInfo, 'photos-page-selecting');
});

test('the empty Photos page: one main button', async ({ page, member }, testInfo) => {
  await signIn(page, member);
  await mainNav(page).getByRole('link', { name: 'Photos' }).click();
  await expect(page.getByRole('heading', { name: 'No photos yet' })).toBeVisible();
  await expect(primaryButtons(page)).toHaveCount(1);
  await captureScreen(page, testInfo, 'photos-page-empty');
});
