import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, mainNav, signIn, test } from './support/fixtures.ts';
import { processed, upload } from './support/media.ts';

// Links to a file that expire in a few seconds stand for the five minutes of a real server.
test.use({ serverConfig: { nodeTokenTtlMs: 4_000 } });

const viewer = (page: Page) => page.getByRole('dialog', { name: 'Photo viewer' });

function tokenIn(url: string): string | null {
  return new URL(url, 'http://relative.invalid').searchParams.get('access_token');
}

test.describe('a long video outlives its link', () => {
  test('each time the token in its URL has expired, a seek to bytes not yet loaded is answered 401, and the viewer renews the link and plays on from there', async ({
    page,
    member,
    hearth,
  }) => {
    test.setTimeout(150_000);
    const id = await upload(hearth.api, member, await longVideo(), 'Long walk.mp4');
    await processed(hearth.api, member, [id], 90_000);
    const answers: { status: number; token: string | null }[] = [];
    page.on('response', (response) => {
      if (response.url().includes(`/nodes/${id}/download?`)) answers.push({ status: response.status(), token: tokenIn(response.url()) });
    });
    await signIn(page, member);
    await mainNav(page).getByRole('link', { name: 'Photos' }).click();
    await page.getByRole('button', { name: /^Video Long walk\.mp4/ }).click();
    const video = viewer(page).locator('video[aria-label="Long walk.mp4"]');
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(1);

    // Twice: the token the video plays with runs out (the viewer keeps it, not swapping the URL of
    // a video under way), then a seek needs bytes the browser has not loaded yet.
    for (const fraction of [0.9, 0.5]) {
      const inUse = tokenIn((await video.getAttribute('src'))!);
      await page.waitForTimeout(5_000);
      await video.evaluate((element: HTMLVideoElement, to: number) => {
        element.currentTime = element.duration * to;
        void element.play().catch(() => undefined);
      }, fraction);
      await expect.poll(() => answers.some((a) => a.status === 401 && a.token === inUse), { timeout: 30_000 }).toBe(true);
      await expect
        .poll(() => video.evaluate((v: HTMLVideoElement) => (v.error === null && v.duration > 0 ? v.currentTime / v.duration : 0)), {
          timeout: 30_000,
        })
        .toBeGreaterThan(fraction - 0.02);
      // The position may already be buffered while the refused read-ahead is renewed: the new
      // link arrives on its own, then bytes come by it.
      await expect.poll(async () => tokenIn((await video.getAttribute('src'))!), { timeout: 30_000 }).not.toBe(inUse);
      const renewed = tokenIn((await video.getAttribute('src'))!);
      await expect.poll(() => answers.some((a) => a.status === 206 && a.token === renewed), { timeout: 30_000 }).toBe(true);
      await expect(viewer(page).getByText("This video can't play here")).toHaveCount(0);
    }
  });
});

let made: Buffer | null = null;
/**
 * A minute of 4 Mbit/s H.264, moov first (about 30 MB): more than a browser reads ahead, so a
 * seek far on asks for new bytes. Making it costs ffmpeg about 9 CPU-s, and the phone and desktop
 * projects run this spec in workers of their own: the first keeps it in the temp folder, under
 * a name that changes with ffmpeg's arguments, and the next reads it from there.
 */
async function longVideo(): Promise<Buffer> {
  if (made) return made;
  const ffmpeg = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;
  const args = [
    '-hide_banner',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=640x360:rate=25',
    '-t',
    '60',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-b:v',
    '4M',
    '-maxrate',
    '4M',
    '-bufsize',
    '1M',
    '-pix_fmt',
    'yuv420p',
    '-movflags',
    '+faststart',
  ];
  const key = crypto
    .createHash('sha256')
    .update(JSON.stringify([ffmpeg, args]))
    .digest('hex')
    .slice(0, 16);
  const kept = path.join(os.tmpdir(), `hearth-e2e-long-video-${key}.mp4`);
  made = await fs.readFile(kept).catch(() => null);
  if (made) return made;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hearth-e2e-video-'));
  const file = path.join(dir, 'long.mp4');
  execFileSync(ffmpeg, ['-y', ...args, file]);
  made = await fs.readFile(file);
  // A rename is whole or nothing: a worker reading at the same moment never sees half a file.
  await fs.rename(file, kept);
  await fs.rm(dir, { recursive: true, force: true });
  return made;
}
