import fs from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { openConsole } from './support/console.ts';
import { expect, mainNav, signIn, test } from './support/fixtures.ts';
import type { Account, Hearth } from './support/hearth.ts';
import { mediaFixture, processed, upload } from './support/media.ts';
import { captureScreen } from './support/screens.ts';
import { linkPath, makeLink } from './support/share.ts';

const viewer = (page: Page) => page.getByRole('dialog', { name: 'Photo viewer' });
/** The slide of one video: the viewer draws its neighbours too. */
const slide = (page: Page, name: string) => viewer(page).getByRole('group', { name, exact: true });

/** The owner's switch, from the test side (the console's own checkbox is tested below). */
async function copiesOn(hearth: Hearth, owner: Account, on: boolean): Promise<void> {
  await hearth.api.ok('PATCH', '/server/settings', owner.access, { make_playback_copies: on });
}

let seed = Date.now() % 1_000_000;
/**
 * A fixture with other bytes and the same picture: a content of its own, so a copy of its own
 * (copies belong to contents, and this worker's server may have copied the fixture already).
 * The digits of the muxer's version in its free-form metadata are changed; nothing reads them.
 */
async function fresh(name: 'iphone-hevc-sound.mov' | 'long-hevc.mov'): Promise<Buffer> {
  const data = Buffer.from(await mediaFixture(name));
  const at = data.indexOf('Lavf');
  if (at < 0) throw new Error(`${name} names no muxer`);
  seed += 1;
  data.write(String(seed).padStart(6, '0').slice(-6), at + 4, 'latin1');
  return data;
}

/**
 * The copy of `id` waits behind two long videos: switched off while they are uploaded, then on
 * again, the queue makes them in order, so the viewer has a while to say the video is prepared.
 */
async function queuedBehindTwo(hearth: Hearth, owner: Account, member: Account, name: string): Promise<{ id: string; data: Buffer }> {
  await copiesOn(hearth, owner, false);
  const ahead = [
    await upload(hearth.api, member, await fresh('long-hevc.mov'), 'Beach, first minute.mov'),
    await upload(hearth.api, member, await fresh('long-hevc.mov'), 'Beach, second minute.mov'),
  ];
  const data = await fresh('iphone-hevc-sound.mov');
  const id = await upload(hearth.api, member, data, name);
  await processed(hearth.api, member, [...ahead, id]);
  return { id, data };
}

/** The room given back: the worker's server is shared, and a copy left waiting for room would wait in later tests too. */
async function roomAgain(hearth: Hearth, owner: Account, member: Account): Promise<void> {
  await hearth.api.ok('PATCH', `/admin/users/${member.id}`, owner.access, { quota_bytes: null });
}

/** An iPhone video of `member`'s whose copy does not fit: the quota leaves room for the video and not a byte more. */
async function overQuotaVideo(hearth: Hearth, owner: Account, member: Account, name: string): Promise<string> {
  const data = await fresh('iphone-hevc-sound.mov');
  const used = (await hearth.api.ok('GET', '/me', member.access)).quota.used as number;
  await hearth.api.ok('PATCH', `/admin/users/${member.id}`, owner.access, { quota_bytes: used + data.length });
  const id = await upload(hearth.api, member, data, name);
  await processed(hearth.api, member, [id]);
  await expect
    .poll(async () => (await hearth.api.ok('GET', `/nodes/${id}/playback`, member.access)).copy.state, { timeout: 60_000 })
    .toBe('over_quota');
  return id;
}

test.describe('every video plays', () => {
  test.afterEach(async ({ hearth, owner }) => copiesOn(hearth, owner, true));

  test("an iPhone's HEVC video says it is being prepared for this browser, then plays its H.264 copy by itself, and seeks; the download is the original", async ({
    page,
    member,
    owner,
    hearth,
  }, testInfo) => {
    test.setTimeout(240_000);
    const { id, data } = await queuedBehindTwo(hearth, owner, member, 'IMG_0042.MOV');
    await signIn(page, member);
    await mainNav(page).getByRole('link', { name: 'Photos' }).click();
    await page.getByRole('button', { name: /^Video IMG_0042\.MOV/ }).click();
    // Copies are switched off: no copy is coming, and this browser cannot play HEVC.
    await expect(slide(page, 'IMG_0042.MOV').getByRole('status').filter({ hasText: "This video can't play here" })).toBeVisible();

    await copiesOn(hearth, owner, true);
    const preparing = slide(page, 'IMG_0042.MOV').getByRole('status').filter({ hasText: 'This video is being prepared for this browser' });
    await expect(preparing).toBeVisible();
    await expect(preparing).toContainText('ready in a few minutes and will start here by itself');
    await expect(slide(page, 'IMG_0042.MOV').locator('img.video-fallback-poster')).toBeVisible();
    await captureScreen(page, testInfo, 'viewer-video-preparing');

    // Ready: the copy takes the slide's place by itself (node.playback_changed), no reload.
    const video = viewer(page).locator('video[aria-label="IMG_0042.MOV"]');
    await expect(video).toHaveAttribute('data-playing', 'copy', { timeout: 200_000 });
    expect(await video.getAttribute('src')).toContain(`/nodes/${id}/download?copy=playback&access_token=`);
    const played = await video.evaluate(
      (element: HTMLVideoElement) =>
        new Promise<{ before: number; after: number; width: number; height: number }>((resolve, reject) => {
          element.addEventListener('error', () => reject(new Error(`video error ${element.error?.code}`)), { once: true });
          element.muted = true;
          const start = () => {
            const before = element.currentTime;
            void element
              .play()
              .then(
                () =>
                  setTimeout(
                    () => resolve({ before, after: element.currentTime, width: element.videoWidth, height: element.videoHeight }),
                    700,
                  ),
                reject,
              );
          };
          if (element.readyState >= 2) start();
          else element.addEventListener('loadeddata', start, { once: true });
        }),
    );
    expect(played.after).toBeGreaterThan(played.before);
    // Upright, as the phone was held: 240 wide, 320 high.
    expect([played.width, played.height]).toEqual([240, 320]);
    const seeked = await video.evaluate(
      (element: HTMLVideoElement) =>
        new Promise<{ time: number; readyState: number }>((resolve) => {
          element.pause();
          element.addEventListener('seeked', () => resolve({ time: element.currentTime, readyState: element.readyState }), { once: true });
          element.currentTime = 1.5;
        }),
    );
    expect(seeked.time).toBeCloseTo(1.5, 1);
    expect(seeked.readyState).toBeGreaterThanOrEqual(1);
    await captureScreen(page, testInfo, 'viewer-video-copy');

    // Downloading is always the original, byte for byte.
    const download = page.waitForEvent('download');
    await viewer(page).getByRole('button', { name: 'Download', exact: true }).click();
    const saved = await download;
    expect(saved.suggestedFilename()).toBe('IMG_0042.MOV');
    expect((await fs.readFile(await saved.path())).equals(data)).toBe(true);
  });

  test("a video whose owner's storage has no room for its copy says so in words, and offers the original's download", async ({
    page,
    member,
    owner,
    hearth,
  }, testInfo) => {
    test.setTimeout(120_000);
    await overQuotaVideo(hearth, owner, member, 'IMG_0060.MOV');

    await signIn(page, member);
    await mainNav(page).getByRole('link', { name: 'Photos' }).click();
    await page.getByRole('button', { name: /^Video IMG_0060\.MOV/ }).click();
    const card = slide(page, 'IMG_0060.MOV').getByRole('status').filter({ hasText: "This video can't play here" });
    await expect(card).toBeVisible();
    await expect(card).toContainText('there is no room left for one in the storage of the person it belongs to');
    await expect(slide(page, 'IMG_0060.MOV').getByRole('button', { name: 'Download video' })).toBeVisible();
    await captureScreen(page, testInfo, 'viewer-video-no-room');
    await roomAgain(hearth, owner, member);
  });

  test("the owner's Storage page says the copies wait for room in their people's storage", async ({
    page,
    member,
    owner,
    hearth,
  }, testInfo) => {
    test.setTimeout(300_000);
    // Whatever earlier tests left that can be made is made first (a video left waiting for room stays): then nothing waits but for room.
    await expect
      .poll(
        async () => {
          const queue = await hearth.api.ok('GET', '/admin/playback-copies', owner.access);
          return queue.checking === 0 && queue.making === null && (queue.waiting === 0 || queue.paused === 'quota');
        },
        { timeout: 240_000 },
      )
      .toBe(true);
    await overQuotaVideo(hearth, owner, member, 'IMG_0061.MOV');
    await signIn(page, owner);
    await openConsole(page, 'Storage');
    const section = page.getByRole('region', { name: 'Videos for every browser' });
    await expect(section.getByText(/^\d+ videos? waiting$/)).toBeVisible();
    await expect(section.getByText('Waiting for room: a copy counts in the storage of the person the video belongs to')).toBeVisible();
    await section.scrollIntoViewIfNeeded();
    await captureScreen(page, testInfo, 'console-playback-quota');
    await roomAgain(hearth, owner, member);
  });

  test("someone without an account, on a folder's link, plays its iPhone video from the copy", async ({ page, member, hearth }) => {
    test.setTimeout(120_000);
    const folder = (await hearth.api.ok('POST', '/nodes/folder', member.access, { name: 'For Grandma' })).id as string;
    const id = await upload(hearth.api, member, await fresh('iphone-hevc-sound.mov'), 'IMG_0050.MOV', folder);
    await processed(hearth.api, member, [id]);
    await expect
      .poll(async () => (await hearth.api.ok('GET', `/nodes/${id}/playback`, member.access)).copy.state, { timeout: 100_000 })
      .toBe('ready');
    const link = await makeLink(hearth, member, folder, {});

    await page.goto(linkPath(link));
    // A folder holding only a video is a folder of photos: shown by day, its tiles without names.
    await page.getByRole('button', { name: 'Video 1 of 1' }).click();
    const video = viewer(page).locator('video[aria-label="IMG_0050.MOV"]');
    await expect(video).toHaveAttribute('data-playing', 'copy');
    expect(await video.getAttribute('src')).toMatch(/\/s\/[^/]+\/playback-copy\?node_id=/);
    const advanced = await video.evaluate(
      (element: HTMLVideoElement) =>
        new Promise<boolean>((resolve, reject) => {
          element.addEventListener('error', () => reject(new Error(`video error ${element.error?.code}`)), { once: true });
          element.muted = true;
          const start = () => void element.play().then(() => setTimeout(() => resolve(element.currentTime > 0), 700), reject);
          if (element.readyState >= 2) start();
          else element.addEventListener('loadeddata', start, { once: true });
        }),
    );
    expect(advanced).toBe(true);
  });

  test("the owner's Storage page shows the copy being made, what waits, the space the copies take, and the switch; off, the copies can be removed", async ({
    page,
    member,
    owner,
    hearth,
  }, testInfo) => {
    test.setTimeout(240_000);
    await queuedBehindTwo(hearth, owner, member, 'IMG_0043.MOV');
    await signIn(page, owner);
    await openConsole(page, 'Storage');
    const section = page.getByRole('region', { name: 'Videos for every browser' });
    // The worker's server is shared: a video an earlier test left waiting for room waits here too.
    const { waiting } = await hearth.api.ok('GET', '/admin/playback-copies', owner.access);
    expect(waiting).toBeGreaterThanOrEqual(3);
    await expect(section.getByText(`${waiting} videos waiting`)).toBeVisible();
    await expect(section.getByText('Switched off: no new copies are made.')).toBeVisible();
    const toggle = section.getByRole('checkbox', { name: /Make copies of videos that some browsers can't play/ });
    await expect(toggle).not.toBeChecked();

    await toggle.check();
    await expect(section.getByText(/^Making a copy of a 1-minute video/)).toBeVisible({ timeout: 60_000 });
    await expect(section.getByRole('progressbar', { name: 'Copy being made' })).toBeVisible();
    await captureScreen(page, testInfo, 'console-playback-queue');

    await expect(section.getByText('Every copy is made.')).toBeVisible({ timeout: 200_000 });
    const made = Number(await section.getByRole('definition').first().textContent());
    expect(made).toBeGreaterThanOrEqual(3);
    await expect(section.getByText(/^\d+(\.\d)? (KB|MB)$/)).toBeVisible();

    await toggle.uncheck();
    await section.getByRole('button', { name: /^Remove the copies/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove the video copies?' });
    await expect(dialog).toContainText('The original videos stay as they are');
    await dialog.getByRole('button', { name: 'Remove the copies' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(section.getByRole('definition').first()).toHaveText('0');
    await expect(section.getByText('0 bytes')).toBeVisible();
    expect((await hearth.api.ok('GET', '/admin/playback-copies', owner.access)).bytes).toBe(0);
  });
});
