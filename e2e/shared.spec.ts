import { uniqueName } from './support/hearth.ts';
import { expect, signIn, test } from './support/fixtures.ts';

test('a grant shows up under "Shared with me" and in My files for the other account', async ({ page, member, hearth, owner }) => {
  const sister = await hearth.api.member(owner, uniqueName('sis'));
  const folder = await hearth.api.ok('POST', '/nodes/folder', sister.access, { name: 'Family recipes' });
  await hearth.api.ok('POST', `/nodes/${folder.id}/permissions`, sister.access, { user_id: member.id, role: 'viewer' });
  await signIn(page, member);
  const list = page.getByRole('list', { name: 'Files and folders' });
  await expect(list.getByRole('listitem').filter({ hasText: 'Family recipes' })).toContainText('Shared with you');
  await page.goto('/shared');
  await expect(page.getByRole('heading', { name: 'Shared with me' })).toBeVisible();
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list.getByRole('listitem').filter({ hasText: 'Family recipes' })).toBeVisible();
});
