import type { Page } from '@playwright/test';
import { expect, mainNav, signIn, test } from './support/fixtures.ts';
import { mediaFixture, photo, processed, upload } from './support/media.ts';
import { captureScreen } from './support/screens.ts';

// A British family looking from New York: what they see is the clock where each photo was taken.
test.use({ locale: 'en-GB', timezoneId: 'America/New_York' });

async function openPhotos(page: Page): Promise<void> {
  await mainNav(page).getByRole('link', { name: 'Photos' }).click();
  await expect(page.getByRole('heading', { name: 'Photos', level: 1 })).toBeVisible();
}

const viewer = (page: Page) => page.getByRole('dialog', { name: 'Photo viewer' });

test.describe('photo search and the viewer’s story', () => {
  test('typing "2019" into Photos’ search shows the 2019 photos as a timeline, without Enter; a search that finds nothing says so plainly', async ({
    page,
    member,
    hearth,
  }, testInfo) => {
    test.setTimeout(90_000);
    const ids = [
      await upload(hearth.api, member, await photo('2019:10:05 11:00:00'), 'PXL_20191005_beach.jpg'),
      await upload(hearth.api, member, await photo('2019:07:01 09:00:00'), 'picnic.jpg'),
      await upload(hearth.api, member, await mediaFixture('paris-canon.jpg'), 'paris.jpg'),
      await upload(hearth.api, member, await photo('2021:07:04 09:00:00'), 'july-2021.jpg'),
      await upload(hearth.api, member, await mediaFixture('lisbon-pixel.jpg'), 'lisbon.jpg'),
    ];
    await processed(hearth.api, member, ids);
    await signIn(page, member);
    await openPhotos(page);
    await expect(page.locator('.month-header h2')).toHaveCount(4);

    await page.getByRole('searchbox', { name: 'Search photos' }).fill('2019');
    const results = page.getByRole('region', { name: 'Photos and videos found for “2019”, newest first' });
    await expect(results).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: '3 photos found for “2019”' })).toBeVisible();
    await expect(results.locator('.month-header h2')).toHaveText([/October 2019\s*1 photo/, /July 2019\s*2 photos/]);
    await expect(results.locator('.tile[aria-label]')).toHaveCount(3);
    await expect(results.locator('.tile[aria-label]').first()).toHaveAttribute('aria-label', /^Photo PXL_20191005_beach\.jpg/);
    await expect(results.locator('.tile img')).toHaveCount(3);
    await expect(page).toHaveURL(/\/gallery\?q=2019$/);
    await captureScreen(page, testInfo, 'photo-search');

    // A place from the photos' GPS, as it is typed.
    await page.getByRole('searchbox', { name: 'Search photos' }).fill('lisb');
    await expect(page.getByRole('region', { name: /found for “lisb”/ }).locator('.tile[aria-label]')).toHaveCount(1);

    await page.getByRole('searchbox', { name: 'Search photos' }).fill('zanzibar');
    await expect(page.getByRole('heading', { name: 'Nothing found for “zanzibar”' })).toBeVisible();
    await expect(page.locator('.tile[aria-label]')).toHaveCount(0);
    await captureScreen(page, testInfo, 'photo-search-empty');

    await page.getByRole('searchbox', { name: 'Search photos' }).fill('');
    await expect(page.getByRole('region', { name: 'Photos and videos, newest first' })).toBeVisible();
    await expect(page.locator('.month-header h2')).toHaveCount(4);
  });

  test('the viewer is titled with the day and place, says the time where it was taken with its zone, and Info tells camera, lens, exposure, size and place; a video tile shows its length', async ({
    page,
    member,
    hearth,
  }, testInfo) => {
    test.setTimeout(90_000);
    const ids = [
      await upload(hearth.api, member, await mediaFixture('lisbon-pixel.jpg'), 'PXL_20240803_185912.jpg'),
      await upload(hearth.api, member, await mediaFixture('lisbon-iphone.mov'), 'IMG_0042.mov'),
    ];
    await processed(hearth.api, member, ids);
    await signIn(page, member);
    await openPhotos(page);

    const video = page.getByRole('button', { name: /^Video IMG_0042\.mov, 0:02, 3 Aug 2024/ });
    await expect(video.locator('.tile-badge')).toHaveText('0:02');

    await page.getByRole('button', { name: /^Photo PXL_20240803_185912\.jpg/ }).click();
    // 19:59 at +01:00: never 18:59 (UTC) nor 14:59 (New York, where this browser is).
    await expect(viewer(page).getByRole('heading', { name: 'Saturday 3 August 2024, Lisbon' })).toBeVisible();
    await expect(viewer(page).locator('.viewer-time')).toHaveText('19:59 GMT+1');
    await expect(viewer(page).locator('.viewer-name')).toHaveText('PXL_20240803_185912.jpg');
    await expect(viewer(page).locator('img.yarl__slide_image').first()).toBeVisible();
    await captureScreen(page, testInfo, 'viewer-story');

    await viewer(page).getByRole('button', { name: 'Details' }).click();
    const details = viewer(page).getByRole('complementary', { name: 'Details' });
    const line = (label: string) =>
      details
        .locator('.viewer-info-line')
        .filter({ has: page.getByText(label, { exact: true }) })
        .locator('dd');
    await expect(line('Taken')).toHaveText(/^Saturday,? 3 August 2024 at 19:59 GMT\+1$/);
    await expect(line('Place')).toHaveText('Lisbon, Portugal');
    await expect(line('Camera')).toHaveText('Google Pixel 8');
    await expect(line('Lens')).toHaveText('Pixel 8 back camera 6.9mm f/1.68');
    await expect(line('Exposure')).toHaveText('f/1.7 · 1/120 s · ISO 50 · 6.9 mm');
    await expect(line('Dimensions')).toHaveText('96 × 64 pixels');
    await expect(line('Size')).toHaveText(/^\d+ bytes$/);
    await captureScreen(page, testInfo, 'viewer-info');
    await details.getByRole('button', { name: 'Close details' }).click();

    // The video, 16 minutes later: its own time, with its zone.
    await viewer(page).getByRole('button', { name: 'Back to photos' }).click();
    await expect(viewer(page)).toHaveCount(0);
    await video.click();
    await expect(viewer(page).locator('.viewer-name')).toHaveText('IMG_0042.mov');
    await expect(viewer(page).locator('.viewer-time')).toHaveText('20:15 GMT+1');
    await expect(viewer(page).getByRole('heading', { name: 'Saturday 3 August 2024, Lisbon' })).toBeVisible();
  });
});
