import type { CDPSession, Page } from '@playwright/test';
import { expect, mainNav, signIn, test } from './support/fixtures.ts';
import type { Account, Hearth } from './support/hearth.ts';
import { mediaFixture, photo, processed, upload } from './support/media.ts';
import { captureScreen } from './support/screens.ts';

/** Uploads photos taken on the given days (newest last in the list) and waits for their thumbnails. */
async function photos(hearth: Hearth, who: Account, days: { when: string; name: string }[]): Promise<string[]> {
  const ids: string[] = [];
  for (const { when, name } of days) ids.push(await upload(hearth.api, who, await photo(when), name));
  await processed(hearth.api, who, ids);
  return ids;
}

function month(year: number, month: number, count: number, prefix: string) {
  return Array.from({ length: count }, (_, i) => ({
    when: `${year}:${String(month).padStart(2, '0')}:${String(1 + (i % 27)).padStart(2, '0')} ${String(8 + (i % 12)).padStart(2, '0')}:00:00`,
    name: `${prefix}-${String(i + 1).padStart(2, '0')}.jpg`,
  }));
}

async function openPhotos(page: Page): Promise<void> {
  await mainNav(page).getByRole('link', { name: 'Photos' }).click();
  await expect(page.getByRole('heading', { name: 'Photos', level: 1 })).toBeVisible();
}

/** A swipe of one finger on a touch screen (real touch events, which the browser turns into pointer events), or a mouse drag. */
async function swipe(page: Page, cdp: CDPSession | null, from: { x: number; y: number }, dx: number): Promise<void> {
  const steps = 8;
  if (cdp) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: from.x, y: from.y }] });
    for (let i = 1; i <= steps; i++) {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: from.x + (dx * i) / steps, y: from.y }] });
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  } else {
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(from.x + dx, from.y, { steps });
    await page.mouse.up();
  }
}

const viewer = (page: Page) => page.getByRole('dialog', { name: 'Photo viewer' });

test.describe('gallery', () => {
  test('every photo on one timeline, by month and newest first; the scrubber jumps to a month; a selection goes to the trash after saying how many, and comes back with Undo', async ({
    page,
    member,
    hearth,
  }, testInfo) => {
    test.setTimeout(120_000);
    await photos(hearth, member, [
      ...month(2010, 3, 6, 'ski'),
      ...month(2019, 7, 6, 'beach'),
      ...month(2023, 12, 18, 'xmas'),
      ...month(2024, 5, 24, 'garden'),
    ]);
    await signIn(page, member);
    await openPhotos(page);

    const headings = page.locator('.month-header h2');
    await expect(headings.first()).toHaveText(/May 2024\s*24 photos/);
    await expect(page.getByText('54 photos')).toBeVisible();
    // Newest first, inside a month too: the 24th of May before the 1st.
    const firstTile = page.locator('.tile[aria-label]').first();
    await expect(firstTile).toHaveAttribute('aria-label', /^Photo garden-24\.jpg/);
    await expect(page.locator('.tile img').first()).toBeVisible();
    await captureScreen(page, testInfo, 'gallery');

    // The oldest month is far below: not on screen until the scrubber takes us there.
    const march2010 = page.getByRole('heading', { name: /March 2010/ });
    await expect(march2010).not.toBeInViewport();
    const scrubber = page.getByRole('slider', { name: 'Jump to a month' });
    await expect(scrubber).toHaveAttribute('aria-valuetext', 'May 2024');
    // Dragged to its end: on a phone by its handle, on a computer anywhere along it.
    const box = (await scrubber.boundingBox())!;
    const handle = (await page.locator('.scrubber-thumb').boundingBox())!;
    const start = testInfo.project.name.startsWith('phone')
      ? { x: handle.x + handle.width / 2, y: handle.y + handle.height / 2 }
      : { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    await page.mouse.move(start.x, box.y + box.height - 2, { steps: 6 });
    await expect(page.locator('.scrubber-bubble')).toHaveText(/2010|2019/);
    await page.mouse.up();
    await expect(march2010).toBeInViewport();
    await expect(page.locator('.tile[aria-label^="Photo ski-"]').first()).toBeInViewport();
    // From the keyboard it is a slider over the months.
    await scrubber.focus();
    await page.keyboard.press('Home');
    await expect(scrubber).toHaveAttribute('aria-valuetext', 'May 2024');
    await expect(page.getByRole('heading', { name: /May 2024/ })).toBeInViewport();
    await page.keyboard.press('ArrowDown');
    await expect(scrubber).toHaveAttribute('aria-valuetext', 'December 2023');

    // Select a whole month: the trash asks with the count, then Undo brings them back.
    await page.getByRole('button', { name: 'Select', exact: true }).click();
    await page.getByRole('button', { name: 'Select all of December 2023' }).click();
    await expect(page.getByRole('heading', { name: '18 selected' })).toBeVisible();
    await page.getByRole('toolbar', { name: 'Selected photos' }).getByRole('button', { name: 'Move to trash' }).click();
    const question = page.getByRole('dialog', { name: 'Move 18 photos to the trash?' });
    await expect(question).toBeVisible();
    await expect(question).toContainText('restored from the trash for 30 days');
    await captureScreen(page, testInfo, 'gallery-trash-question');
    await question.getByRole('button', { name: 'Move to trash' }).click();
    await expect(page.getByRole('status').filter({ hasText: '18 photos moved to the trash.' })).toBeVisible();
    await expect(page.getByRole('heading', { name: /December 2023/ })).toHaveCount(0);
    expect((await hearth.api.ok('GET', '/trash', member.access)).items).toHaveLength(18);
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect(page.getByRole('status').filter({ hasText: '18 photos restored.' })).toBeVisible();
    await expect(page.getByRole('heading', { name: /December 2023/ })).toHaveCount(1);
    expect((await hearth.api.ok('GET', '/trash', member.access)).items).toHaveLength(0);
  });

  test('the viewer swipes and steps between photos (the 1024 px preview, not the original), shows the details, and a video seeks with Range requests', async ({
    page,
    member,
    hearth,
  }, testInfo) => {
    test.setTimeout(90_000);
    const folder = await hearth.api.ok('POST', '/nodes/folder', member.access, { name: 'Summer' });
    const ids: string[] = [];
    for (const [day, name] of [
      ['01', 'first.jpg'],
      ['02', 'second.jpg'],
      ['03', 'third.jpg'],
    ] as const) {
      ids.push(await upload(hearth.api, member, await photo(`2024:05:${day} 12:00:00`, 1600, 1200), name, folder.id));
    }
    ids.push(await upload(hearth.api, member, await mediaFixture('clip.mp4'), 'clip.mp4'));
    await processed(hearth.api, member, ids);
    const originals: string[] = [];
    const ranges: number[] = [];
    page.on('request', (request) => {
      if (/\/download\?/.test(request.url()) && !request.url().includes(ids[3]!)) originals.push(request.url());
    });
    page.on('response', (response) => {
      if (response.url().includes(`/nodes/${ids[3]}/download`)) ranges.push(response.status());
    });

    await signIn(page, member);
    await openPhotos(page);
    await page.getByRole('button', { name: /^Photo third\.jpg/ }).click();
    const title = viewer(page).locator('.viewer-name');
    await expect(title).toHaveText('third.jpg');
    await expect(viewer(page).locator('img.yarl__slide_image').first()).toBeVisible();
    await captureScreen(page, testInfo, 'viewer-photo');

    const cdp = testInfo.project.name.startsWith('phone') ? await page.context().newCDPSession(page) : null;
    const size = page.viewportSize()!;
    await swipe(page, cdp, { x: size.width * 0.8, y: size.height / 2 }, -size.width * 0.6);
    await expect(title).toHaveText('second.jpg');
    await expect(page).toHaveURL(new RegExp(`/gallery/${ids[1]}$`));
    await page.keyboard.press('ArrowRight');
    await expect(title).toHaveText('first.jpg');
    await swipe(page, cdp, { x: size.width * 0.2, y: size.height / 2 }, size.width * 0.6);
    await expect(title).toHaveText('second.jpg');

    await viewer(page).getByRole('button', { name: 'Details' }).click();
    const details = viewer(page).getByRole('complementary', { name: 'Details' });
    await expect(details).toContainText('1600 × 1200 pixels');
    await expect(details).toContainText('Summer');
    await captureScreen(page, testInfo, 'viewer-details');
    await details.getByRole('button', { name: 'Close details' }).click();
    // Share hands over to the share feature's dialog, inside the viewer.
    await viewer(page).getByRole('button', { name: 'Share' }).click();
    const share = page.getByRole('dialog', { name: 'Share “second.jpg”' });
    await expect(share).toBeVisible();
    await share.getByRole('button', { name: 'Close' }).click();
    await expect(share).toHaveCount(0);
    // At fit-to-screen the original is never fetched: the preview is enough. Zoomed in, it is.
    expect(originals).toEqual([]);
    const shown = viewer(page).locator('.yarl__slide_current img.yarl__slide_image').first();
    if (cdp) {
      const at = (await shown.boundingBox())!;
      await page.touchscreen.tap(at.x + at.width / 2, at.y + at.height / 2);
      await page.touchscreen.tap(at.x + at.width / 2, at.y + at.height / 2);
    } else {
      await shown.dblclick();
    }
    await expect.poll(() => originals.length).toBeGreaterThan(0);
    expect(originals[0]).toContain(`/nodes/${ids[1]}/download?`);
    expect(originals[0]).toContain('inline=1');
    // Back to the whole photo (Ctrl+0), where the arrows step again.
    await page.keyboard.press('Control+0');

    // The last photo of May, then the video of January 2020: it plays and seeks.
    await page.keyboard.press('ArrowRight');
    await expect(title).toHaveText('first.jpg');
    await page.keyboard.press('ArrowRight');
    await expect(title).toHaveText('clip.mp4');
    const video = viewer(page).locator('video[aria-label="clip.mp4"]');
    await expect(video).toBeVisible();
    const seeked = await video.evaluate(
      (element: HTMLVideoElement) =>
        new Promise<{ time: number; duration: number; width: number }>((resolve, reject) => {
          const seek = () => {
            element.addEventListener(
              'seeked',
              () => resolve({ time: element.currentTime, duration: element.duration, width: element.videoWidth }),
              { once: true },
            );
            element.currentTime = element.duration * 0.75;
          };
          element.addEventListener('error', () => reject(new Error(`video error ${element.error?.code}`)), { once: true });
          if (element.readyState >= 1) seek();
          else element.addEventListener('loadedmetadata', seek, { once: true });
        }),
    );
    expect(seeked.width).toBeGreaterThan(0);
    expect(seeked.time).toBeCloseTo(seeked.duration * 0.75, 1);
    expect(ranges).toContain(206);

    // Back closes the viewer, on the timeline where it was.
    await page.goBack();
    await expect(viewer(page)).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Photos', level: 1 })).toBeVisible();
  });

  test("a video this browser cannot play (an iPhone's HEVC .mov), with no playback copy coming, shows its poster, says so and offers the download: never a black box", async ({
    page,
    member,
    owner,
    hearth,
  }, testInfo) => {
    // The owner switched playback copies off (with them on, playback-copies.spec.ts: it plays).
    await hearth.api.ok('PATCH', '/server/settings', owner.access, { make_playback_copies: false });
    try {
      const id = await upload(hearth.api, member, await mediaFixture('iphone-hevc.mov'), 'IMG_0042.MOV');
      await processed(hearth.api, member, [id]);
      await signIn(page, member);
      await openPhotos(page);
      await page.getByRole('button', { name: /^Video IMG_0042\.MOV/ }).click();
      const notice = viewer(page).getByRole('status').filter({ hasText: "This video can't play here" });
      await expect(notice).toBeVisible();
      await expect(viewer(page).locator('video')).toHaveCount(0);
      await expect(viewer(page).locator('img.video-fallback-poster')).toBeVisible();
      await captureScreen(page, testInfo, 'viewer-video-unplayable');
      const download = page.waitForEvent('download');
      await notice.getByRole('button', { name: 'Download video' }).click();
      expect((await download).suggestedFilename()).toBe('IMG_0042.MOV');
    } finally {
      await hearth.api.ok('PATCH', '/server/settings', owner.access, { make_playback_copies: true });
    }
  });

  test('an empty gallery says what to do, and a photo uploaded on another device appears without a reload', async ({
    page,
    member,
    browser,
  }, testInfo) => {
    await signIn(page, member);
    await openPhotos(page);
    await expect(page.getByRole('heading', { name: 'No photos yet' })).toBeVisible();
    await captureScreen(page, testInfo, 'gallery-empty');

    // The same family member on another phone uploads a photo from its gallery.
    const other = await browser.newContext({ baseURL: new URL(page.url()).origin });
    const phone = await other.newPage();
    await signIn(phone, member);
    await openPhotos(phone);
    const chooser = phone.waitForEvent('filechooser');
    // On a phone Upload is under Add photos (the main button there is Back up this phone).
    const addPhotos = phone.getByRole('button', { name: 'Add photos' });
    if (await addPhotos.count()) await addPhotos.click();
    await phone.getByRole('button', { name: 'Upload' }).click();
    await (
      await chooser
    ).setFiles([{ name: 'from-the-other-phone.jpg', mimeType: 'image/jpeg', buffer: await photo('2025:08:15 16:20:00') }]);

    await expect(page.getByRole('heading', { name: /August 2025/ })).toBeVisible({ timeout: 30_000 });
    const tile = page.getByRole('button', { name: /^Photo from-the-other-phone\.jpg, .*2025/ });
    await expect(tile).toBeVisible();
    await expect(tile.locator('img')).toBeVisible({ timeout: 30_000 });
    await other.close();
  });
});
