import sharp from 'sharp';
import { uploadAs } from './support/hearth.ts';
import { expect, signIn, test } from './support/fixtures.ts';

test('a photo uploaded from another device appears in open views without a reload: My files and the gallery, thumbnail included', async ({
  browser,
  page,
  member,
  hearth,
  baseURL,
}) => {
  await signIn(page, member);
  const other = await browser.newContext({ baseURL });
  const gallery = await other.newPage();
  await signIn(gallery, member);
  await gallery.goto('/gallery');
  await expect(gallery.getByRole('heading', { name: 'No photos yet' })).toBeVisible();
  await expect(page.getByText('Nothing here yet.')).toBeVisible();

  const picture = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#aa4422' } })
    .jpeg()
    .withExif({ IFD0: { Make: 'Hearth test' }, IFD2: { DateTimeOriginal: '2022:05:01 12:00:00' } })
    .toBuffer();
  await uploadAs(hearth.api, member, 'from-grandpas-phone.jpg', picture);

  await expect(page.getByRole('list', { name: 'Files and folders' }).getByText('from-grandpas-phone.jpg')).toBeVisible();
  await expect(page.locator('img.node-thumb')).toHaveCount(1, { timeout: 30_000 });
  await expect(gallery.getByRole('heading', { name: /May 2022/ })).toBeVisible();
  await expect(gallery.locator('.tile img')).toHaveCount(1, { timeout: 30_000 });
  await other.close();
});
