import sharp from 'sharp';
import { captureScreen } from './support/screens.ts';
import { expect, signIn, test } from './support/fixtures.ts';

test('a photo and a folder made over WebDAV (a drive password, HTTP Basic) appear live in My files, and a delete there takes them out', async ({
  page,
  member,
  hearth,
}, testInfo) => {
  const made = await hearth.api.ok('POST', '/me/dav-passwords', member.access, { name: "Dad's laptop" });
  const authorization = `Basic ${Buffer.from(`${member.username}:${made.password}`).toString('base64')}`;
  const dav = (method: string, path: string, body?: Buffer) =>
    fetch(`${hearth.url}/dav/${path}`, { method, headers: { Authorization: authorization }, ...(body && { body: new Uint8Array(body) }) });

  await signIn(page, member);
  const list = page.getByRole('list', { name: 'Files and folders' });
  await expect(page.getByText('Nothing here yet.')).toBeVisible();

  const picture = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#3366aa' } })
    .jpeg()
    .toBuffer();
  expect((await dav('MKCOL', 'Camera%20card')).status).toBe(201);
  expect((await dav('PUT', 'from-the-laptop.jpg', picture)).status).toBe(201);

  await expect(list.getByText('Camera card')).toBeVisible();
  await expect(list.getByText('from-the-laptop.jpg')).toBeVisible();
  await expect(page.locator('img.node-thumb')).toHaveCount(1, { timeout: 30_000 });
  await captureScreen(page, testInfo, 'dav-live');

  expect((await dav('DELETE', 'from-the-laptop.jpg')).status).toBe(204);
  await expect(list.getByText('from-the-laptop.jpg')).toHaveCount(0);
  await expect(list.getByText('Camera card')).toBeVisible();
});
