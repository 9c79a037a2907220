import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { uploadAs } from './support/hearth.ts';
import { expect, mainNav, signIn, test } from './support/fixtures.ts';

/** A real JPEG taken at `when`, in a colour of its own. */
function photo(when: string, hue: number): Promise<Buffer> {
  return sharp({ create: { width: 800, height: 600, channels: 3, background: { r: hue % 255, g: (hue * 3) % 255, b: 150 } } })
    .jpeg()
    .withExif({ IFD0: { Make: 'Hearth test' }, IFD2: { DateTimeOriginal: when } })
    .toBuffer();
}

/** Six seconds of H.264 (keyframe every second), made by ffmpeg; Chromium plays it. */
function video(): Buffer {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-e2e-video-')), 'clip.mp4');
  execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=duration=6:size=320x240:rate=25', '-c:v', 'libx264', '-g', '25', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', '-y', file]);
  return fs.readFileSync(file);
}

test('the gallery groups photos by month, the viewer swipes between them, and a video seeks over Range', async ({ page, member, hearth }) => {
  test.setTimeout(120_000);
  const taken = ['2024:08:14 10:00:00', '2024:08:02 09:00:00', '2024:06:20 18:30:00', '2023:12:24 20:00:00', '2023:12:25 08:00:00'];
  for (const [i, when] of taken.entries()) await uploadAs(hearth.api, member, `IMG_${1000 + i}.jpg`, await photo(when, i * 40));
  await uploadAs(hearth.api, member, 'clip.mp4', video(), { filetype: 'video/mp4' });
  await signIn(page, member);
  await mainNav(page).getByRole('link', { name: 'Photos' }).click();
  await expect(page.getByRole('heading', { name: 'Photos', level: 1 })).toBeVisible();

  // Newest first: this month (the video, uploaded today, has no capture time), then August, June, December 2023.
  const headers = page.locator('.month-header');
  await expect(headers).toHaveCount(4, { timeout: 20_000 });
  const labels = await headers.allTextContents();
  expect(labels.slice(1).map((l) => l.replace(/\s+/g, ' ').trim())).toEqual([
    expect.stringMatching(/August 2024 · 2/),
    expect.stringMatching(/June 2024 · 1/),
    expect.stringMatching(/December 2023 · 2/),
  ]);
  // Thumbnails arrive as the media worker makes them.
  await expect(async () => {
    await page.reload();
    await expect(page.locator('.thumb img')).toHaveCount(6, { timeout: 3_000 });
  }).toPass({ timeout: 60_000 });

  // The viewer: open August's newest, swipe left to the next photo, then on across the month.
  await page.getByRole('button', { name: 'Photo IMG_1000.jpg' }).click();
  const viewer = page.getByRole('dialog', { name: 'IMG_1000.jpg' });
  await expect(viewer).toBeVisible();
  await expect(viewer.getByRole('img', { name: 'IMG_1000.jpg' })).toBeVisible();
  const stage = page.getByTestId('viewer-stage');
  const box = (await stage.boundingBox())!;
  await stage.dispatchEvent('pointerdown', { pointerId: 1, clientX: box.x + box.width * 0.8, clientY: box.y + box.height / 2, isPrimary: true });
  await stage.dispatchEvent('pointerup', { pointerId: 1, clientX: box.x + box.width * 0.2, clientY: box.y + box.height / 2, isPrimary: true });
  await expect(page.getByRole('dialog', { name: 'IMG_1001.jpg' })).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('dialog', { name: 'IMG_1002.jpg' })).toBeVisible();
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('dialog', { name: 'IMG_1001.jpg' })).toBeVisible();
  await page.getByRole('button', { name: 'Close' }).first().click();

  // The video plays from the server and seeks: the seek is answered with a range (206).
  const ranges: number[] = [];
  page.on('response', (response) => {
    if (response.url().includes('/download') && response.status() === 206) ranges.push(response.status());
  });
  await page.getByRole('button', { name: 'Video clip.mp4' }).click();
  const player = page.locator('video.viewer-video');
  await expect(player).toBeVisible();
  await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
  expect(await player.evaluate((v: HTMLVideoElement) => v.duration)).toBeGreaterThan(5);
  await player.evaluate(
    (v: HTMLVideoElement) =>
      new Promise<void>((resolve) => {
        v.addEventListener('seeked', () => resolve(), { once: true });
        v.currentTime = 4.5;
      }),
  );
  expect(await player.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeCloseTo(4.5, 0);
  expect(ranges.length).toBeGreaterThan(0);
});

test("an iPhone's HEVC .mov that the browser cannot play shows its poster, says so, and offers the download", async ({ page, member, hearth }) => {
  test.setTimeout(90_000);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-e2e-hevc-')), 'IMG_0420.MOV');
  execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=duration=2:size=320x240:rate=25', '-c:v', 'libx265', '-tag:v', 'hvc1', '-pix_fmt', 'yuv420p', '-y', file]);
  await uploadAs(hearth.api, member, 'IMG_0420.MOV', fs.readFileSync(file), { filetype: 'video/quicktime' });
  await signIn(page, member);
  await page.goto('/gallery');
  await page.getByRole('button', { name: 'Video IMG_0420.MOV' }).click();
  const viewer = page.getByRole('dialog', { name: 'IMG_0420.MOV' });
  await expect(viewer.getByText("This video can't play here.")).toBeVisible({ timeout: 20_000 });
  const download = page.waitForEvent('download');
  await viewer.getByRole('button', { name: 'Download' }).last().click();
  expect((await download).suggestedFilename()).toBe('IMG_0420.MOV');
});
