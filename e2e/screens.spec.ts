import { expect, signIn, test } from './support/fixtures.ts';
import sharp from 'sharp';
import { uploadAs } from './support/hearth.ts';
import { captureScreen } from './support/screens.ts';

/*
 * Every main screen, photographed at phone and desktop size in light and dark, and checked
 * with axe. The pictures are for people to look at: is each screen clear to a parent?
 */
test.describe('screens', () => {
  // Each screen is photographed twice and checked by axe twice: slow on a busy machine.
  test.describe.configure({ timeout: 120_000 });
  test('sign-in, and its error, are clear and accessible', async ({ page, member }, testInfo) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Sign in to Home' })).toBeVisible();
    await captureScreen(page, testInfo, 'sign-in');
    await page.getByLabel('Username').fill(member.username);
    await page.getByLabel('Password').fill('wrong password here');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await captureScreen(page, testInfo, 'sign-in-error');
  });

  test('My files: empty, then with folders, files and a very long name', async ({ page, member, hearth }, testInfo) => {
    await signIn(page, member);
    await captureScreen(page, testInfo, 'files-empty');
    await hearth.api.ok('POST', '/nodes/folder', member.access, { name: 'Holidays' });
    await hearth.api.ok('POST', '/nodes/folder', member.access, {
      name: 'School reports and letters from the council about the new bus timetable 2024',
    });
    const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 40, g: 120, b: 200 } } })
      .jpeg()
      .toBuffer();
    await uploadAs(hearth.api, member, 'Beach day with the cousins and the dog, August.jpg', photo);
    await uploadAs(hearth.api, member, 'Tax return 2023.pdf', Buffer.from('%PDF-1.4 not really'));
    await page.reload();
    await expect(page.getByText('Holidays')).toBeVisible();
    await expect(page.locator('img.node-thumb')).toHaveCount(1, { timeout: 20_000 });
    await captureScreen(page, testInfo, 'files');
    await page.getByRole('button', { name: 'More for Holidays' }).click();
    await captureScreen(page, testInfo, 'file-actions');
    await page.getByRole('button', { name: 'Move', exact: true }).click();
    await captureScreen(page, testInfo, 'move-picker');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('checkbox', { name: 'Select Holidays' }).check();
    await page.getByRole('checkbox', { name: 'Select Tax return 2023.pdf' }).check();
    await captureScreen(page, testInfo, 'files-selection');
    await page.getByRole('toolbar', { name: 'Selection' }).getByRole('button', { name: 'Trash' }).click();
    await captureScreen(page, testInfo, 'confirm-trash');
    await page.getByRole('button', { name: 'Move to trash' }).click();
    await page.goto('/trash');
    await expect(page.getByRole('heading', { name: 'Trash' })).toBeVisible();
    await captureScreen(page, testInfo, 'trash');
    await page.goto('/files');
    await page.getByRole('link', { name: /School reports/ }).click();
    await expect(page.getByRole('heading', { name: /School reports/ })).toBeVisible();
    await captureScreen(page, testInfo, 'folder-empty');
  });

  test('account', async ({ page, member }, testInfo) => {
    await signIn(page, member);
    await page.goto('/account');
    await expect(page.getByRole('heading', { name: 'Account' })).toBeVisible();
    await captureScreen(page, testInfo, 'account');
  });
});

test('uploads: in progress, a name clash, and a full quota', async ({ page, member, hearth, owner }, testInfo) => {
  test.setTimeout(120_000);
  await uploadAs(hearth.api, member, 'IMG_2041.jpg', Buffer.from('an older photo'));
  await signIn(page, member);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 256 * 1024 });
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload' }).click();
  await (
    await chooser
  ).setFiles([
    { name: 'IMG_2041.jpg', mimeType: 'image/jpeg', buffer: Buffer.alloc(3_000_000, 7) },
    { name: 'IMG_2042.jpg', mimeType: 'image/jpeg', buffer: Buffer.alloc(2_000_000, 8) },
    { name: 'Birthday video.mp4', mimeType: 'video/mp4', buffer: Buffer.alloc(4_000_000, 9) },
  ]);
  await expect(page.getByRole('dialog', { name: /already here/ })).toBeVisible();
  await captureScreen(page, testInfo, 'upload-clash');
  await page.getByRole('button', { name: /Keep both/ }).click();
  await expect(page.getByRole('region', { name: 'Uploads' }).getByText(/left/)).toBeVisible({ timeout: 20_000 });
  await captureScreen(page, testInfo, 'uploading');
  await page.getByRole('region', { name: 'Uploads' }).getByRole('button', { expanded: false }).click();
  for (const name of ['IMG_2041.jpg', 'IMG_2042.jpg', 'Birthday video.mp4'])
    await page.getByRole('button', { name: `Cancel ${name}` }).click();
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await hearth.api.ok('PATCH', `/admin/users/${member.id}`, owner.access, { quota_bytes: 1_000_000 });
  await page.reload();
  const again = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload' }).click();
  await (await again).setFiles({ name: 'Holiday slideshow.mp4', mimeType: 'video/mp4', buffer: Buffer.alloc(2_000_000, 1) });
  await page.getByRole('region', { name: 'Uploads' }).getByRole('button', { name: '1 video not uploaded' }).click();
  await expect(page.getByText(/Not enough space left in your storage/)).toBeVisible();
  await captureScreen(page, testInfo, 'upload-quota-full');
});

// Sharing's screens (the dialog, QR code, family tab, a link's public pages) are photographed by
// share-link.spec.ts and public-link.spec.ts, in the flows that reach them.
// The gallery's screens (months, selection, the viewer, a video that cannot play) are
// photographed by gallery.spec.ts.
