import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, signIn, test } from './support/fixtures.ts';
import { captureScreen } from './support/screens.ts';
import { callThem, linkPath, makeLink, photo, seedAlbum, thumbnailsReady } from './support/share.ts';
import { uploadFile } from '../server/test/helpers/upload.ts';

/** Who is signed in (localStorage) and the refresh token (IndexedDB), as the app keeps them. */
function storedSession(page: Page): Promise<{ who: string | null; refresh: string | null }> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('hearth-session');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const refresh = await new Promise<string | null>((resolve) => {
      if (!db.objectStoreNames.contains('tokens')) return resolve(null);
      const read = db.transaction('tokens', 'readonly').objectStore('tokens').get('refresh');
      read.onsuccess = () => resolve(typeof read.result === 'string' ? read.result : null);
      read.onerror = () => resolve(null);
    });
    db.close();
    return { who: localStorage.getItem('hearth.session'), refresh };
  });
}

const sha256 = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');

/** Every picture in the grid has loaded real pixels (not a broken image). */
async function expectThumbnailsLoaded(page: Page, count: number) {
  const grid = page.getByRole('list', { name: 'Files in this folder' });
  await expect(grid.locator('img')).toHaveCount(count);
  await expect(async () => {
    const widths = await grid
      .locator('img')
      .evaluateAll((imgs) => imgs.map((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth));
    expect(widths.every((w) => typeof w === 'number' && w > 0)).toBe(true);
  }).toPass({ timeout: 15_000 });
}

test.describe('a link opened by someone without an account', () => {
  test('a password-protected folder link: unlock, browse the folder and a folder inside, see thumbnails, view, and download byte-identical', async ({
    page,
    member,
    hearth,
  }, testInfo) => {
    const ownerName = await callThem(hearth, member, 'Anna');
    const album = await seedAlbum(hearth, member);
    const link = await makeLink(hearth, member, album.folderId, { password: 'lake-house-2024' });

    await page.goto(linkPath(link));
    await expect(page.getByRole('heading', { name: 'This link is protected' })).toBeVisible();
    await captureScreen(page, testInfo, 'public-password');

    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Open' }).click();
    await expect(page.getByText('That password is not right. Check it and try again.')).toBeVisible();
    await page.getByLabel('Password').fill('lake-house-2024');
    await page.getByRole('button', { name: 'Open' }).click();

    await expect(page.getByRole('heading', { name: 'Summer at the lake' })).toBeVisible();
    await expect(page.getByText(`Shared with you by ${ownerName}`)).toBeVisible();
    const grid = page.getByRole('list', { name: 'Files in this folder' });
    await expect(grid.getByRole('listitem')).toHaveCount(6);
    // Three photos and the video's poster; the note has an icon.
    await expectThumbnailsLoaded(page, 4);
    await captureScreen(page, testInfo, 'public-folder');

    // A folder inside, and back up by the path.
    await grid.getByRole('link', { name: 'Day two' }).click();
    await expect(page.getByRole('heading', { name: 'Day two' })).toBeVisible();
    await expectThumbnailsLoaded(page, 1);
    await page.getByRole('navigation', { name: 'Folder path' }).getByRole('link', { name: 'Summer at the lake' }).click();
    await expect(page.getByRole('heading', { name: 'Summer at the lake' })).toBeVisible();

    // The viewer: a photo full screen, the next one, its download, and the video playing from the link.
    // It is the app's viewer: the one the gallery opens.
    const viewer = page.getByRole('dialog', { name: 'Photo viewer' });
    await grid.getByRole('button', { name: 'Beach.jpg' }).click();
    await expect(viewer.locator('.viewer-name')).toHaveText('Beach.jpg');
    await expect(viewer.getByRole('img', { name: 'Beach.jpg' })).toBeVisible();
    await captureScreen(page, testInfo, 'public-viewer');
    // A phone swipes (the viewer shows no arrows on a touch screen); its keyboard steps the same way.
    if (testInfo.project.name === 'phone') await page.keyboard.press('ArrowRight');
    else await viewer.getByRole('button', { name: 'Next' }).click();
    await expect(viewer.locator('.viewer-name')).toHaveText('Boat.jpg');
    await expect(viewer.getByRole('img', { name: 'Boat.jpg' })).toBeVisible();
    const downloading = page.waitForEvent('download');
    await viewer.getByRole('button', { name: 'Download' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('Boat.jpg');
    expect(sha256(await fs.readFile((await download.path())!))).toBe(sha256(album.files.get('Boat.jpg')!.bytes));
    await viewer.getByRole('button', { name: 'Close' }).click();
    await expect(viewer).toBeHidden();
    await grid.getByRole('button', { name: 'Swimming.mp4' }).click();
    const video = viewer.locator('video[aria-label="Swimming.mp4"]');
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(1);
    await page.keyboard.press('Escape');

    // The unlock lasts for this tab (a reload keeps it), and no other tab gets it.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Summer at the lake' })).toBeVisible();
    const other = await page.context().newPage();
    await other.goto(linkPath(link));
    await expect(other.getByRole('heading', { name: 'This link is protected' })).toBeVisible();
  });

  test('with downloads turned off, a photo shows but nothing offers to save it', async ({ page, member, hearth }) => {
    const folder = await hearth.api.ok('POST', '/nodes/folder', member.access, { name: 'Look only' });
    const id = await uploadFile(hearth.api.base, member.access, await photo(7), {
      filename: 'Portrait.jpg',
      filetype: 'image/jpeg',
      parentId: folder.id,
    });
    await thumbnailsReady(hearth, member, [folder.id], 1);
    const link = await makeLink(hearth, member, id, { allow_download: false });

    await page.goto(linkPath(link));
    await expect(page.getByRole('heading', { name: 'Portrait.jpg' })).toBeVisible();
    await expect(page.getByText('turned off downloads for this link')).toBeVisible();
    await expect(page.getByRole('link', { name: /Download/ })).toHaveCount(0);
    await page.getByRole('button', { name: 'Open Portrait.jpg' }).click();
    const viewer = page.getByRole('dialog', { name: 'Photo viewer' });
    await expect(viewer.getByRole('img', { name: 'Portrait.jpg' })).toBeVisible();
    await expect(viewer.getByRole('button', { name: /Download/ })).toHaveCount(0);
    await expect(viewer.getByRole('link', { name: /Download/ })).toHaveCount(0);
  });

  test('expired, turned-off and unknown links each get a clear page', async ({ page, member, hearth }, testInfo) => {
    const folder = await hearth.api.ok('POST', '/nodes/folder', member.access, { name: 'Old news' });
    const expired = await makeLink(hearth, member, folder.id, { expires_at: Date.now() - 1000 });
    await page.goto(linkPath(expired));
    await expect(page.getByRole('heading', { name: 'This link has expired' })).toBeVisible();
    await expect(page.getByText('Ask them to send you a new link.')).toBeVisible();
    await captureScreen(page, testInfo, 'public-expired');

    const revoked = await makeLink(hearth, member, folder.id);
    await page.goto(linkPath(revoked));
    await expect(page.getByRole('heading', { name: 'Old news' })).toBeVisible();
    await hearth.api.ok('DELETE', `/shares/${revoked.id}`, member.access);
    await page.reload();
    await expect(page.getByRole('heading', { name: "This link doesn't work" })).toBeVisible();

    await page.goto('/s/this-link-was-never-made-by-anyone');
    await expect(page.getByRole('heading', { name: "This link doesn't work" })).toBeVisible();
  });

  test('too many wrong passwords say when to try again', async ({ page, member, hearth }) => {
    const folder = await hearth.api.ok('POST', '/nodes/folder', member.access, { name: 'Guarded' });
    const link = await makeLink(hearth, member, folder.id, { password: 'the right one 42' });
    await page.goto(linkPath(link));
    // Wrong guesses from this address until the server stops listening for a while.
    let answer = 0;
    for (let i = 0; i < 30 && answer !== 429; i++) {
      answer = (await hearth.api.call('POST', `/s/${link.token}/unlock`, undefined, { password: `guess ${i}` })).status;
    }
    expect(answer).toBe(429);
    await page.getByLabel('Password').fill('the right one 42');
    await page.getByRole('button', { name: 'Open' }).click();
    await expect(
      page.getByText(/Too many wrong tries\. You can try again in \d+ (minute|second)s? \(at .+\): the right password will work then\./),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Open' })).toBeDisabled();
  });

  test("a family member's session in this browser is neither used nor touched by a link's page", async ({ page, member, hearth }) => {
    const folder = await hearth.api.ok('POST', '/nodes/folder', member.access, { name: 'Recipes' });
    const link = await makeLink(hearth, member, folder.id);
    await signIn(page, member);
    const before = await storedSession(page);
    expect(before.refresh).toBeTruthy();

    // The signed-in app's page ends first: its own late requests (the family's names for My files,
    // sent once its listing is in) are its, not the link page's, and were seen here on a slow run.
    await page.goto('about:blank');
    const seen: { url: string; authorization: string | undefined }[] = [];
    page.on('request', (request) => seen.push({ url: request.url(), authorization: request.headers().authorization }));
    await page.goto(linkPath(link));
    await expect(page.getByRole('heading', { name: 'Recipes' })).toBeVisible();
    await expect(page.getByText('This folder is empty.')).toBeVisible();

    const api = seen.filter((r) => new URL(r.url).pathname.startsWith('/api/'));
    expect(api.length).toBeGreaterThan(0);
    expect(api.filter((r) => r.authorization !== undefined)).toEqual([]);
    expect(api.filter((r) => !new URL(r.url).pathname.startsWith('/api/v1/s/')).map((r) => r.url)).toEqual([]);
    // The session's refresh token was neither spent nor replaced.
    expect(await storedSession(page)).toEqual(before);
  });
});
