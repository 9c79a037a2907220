import sharp from 'sharp';
import { uniqueName } from './support/hearth.ts';
import { captureScreen } from './support/screens.ts';
import { expect, signIn, test } from './support/fixtures.ts';

test("Gran's drive shows what the family shares under Shared with me: a photo she drops into a folder she may edit appears live in its owner's folder, and one she may only view refuses changes", async ({
  page,
  member,
  owner,
  hearth,
}, testInfo) => {
  const gran = await hearth.api.member(owner, uniqueName('gran'));
  const plans = await hearth.api.ok('POST', '/nodes/folder', member.access, { name: 'Holiday plans' });
  const recipes = await hearth.api.ok('POST', '/nodes/folder', member.access, { name: 'Recipes' });
  await hearth.api.ok('POST', `/nodes/${plans.id}/permissions`, member.access, { user_id: gran.id, role: 'editor' });
  await hearth.api.ok('POST', `/nodes/${recipes.id}/permissions`, member.access, { user_id: gran.id, role: 'viewer' });

  const made = await hearth.api.ok('POST', '/me/dav-passwords', gran.access, { name: "Gran's computer" });
  const authorization = `Basic ${Buffer.from(`${gran.username}:${made.password}`).toString('base64')}`;
  const dav = (method: string, path: string, body?: Buffer, headers: Record<string, string> = {}) =>
    fetch(`${hearth.url}/dav/Shared%20with%20me/${path}`, {
      method,
      headers: { Authorization: authorization, ...headers },
      ...(body && { body: new Uint8Array(body) }),
    });

  const listing = await (await dav('PROPFIND', '', undefined, { Depth: '1' })).text();
  expect(listing).toContain('<d:href>/dav/Shared%20with%20me/Holiday%20plans/</d:href>');
  expect(listing).toContain('<d:href>/dav/Shared%20with%20me/Recipes/</d:href>');

  await signIn(page, member);
  await page.goto(`/files/${plans.id}`);
  const list = page.getByRole('list', { name: 'Files and folders' });
  await expect(page.getByText('This folder is empty.')).toBeVisible();

  const picture = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#aa6633' } })
    .jpeg()
    .toBuffer();
  expect((await dav('PUT', 'Holiday%20plans/from-gran.jpg', picture)).status).toBe(201);
  await expect(list.getByText('from-gran.jpg')).toBeVisible();
  await expect(page.locator('img.node-thumb')).toHaveCount(1, { timeout: 30_000 });
  await captureScreen(page, testInfo, 'dav-shared-editor');

  const refused = await dav('PUT', 'Recipes/soup.txt', Buffer.from('leek'));
  expect(refused.status).toBe(403);
  expect(await refused.text()).toContain('<h:code>shared_view_only</h:code>');
  await page.goto(`/files/${recipes.id}`);
  await expect(page.getByText('This folder is empty.')).toBeVisible();
});
