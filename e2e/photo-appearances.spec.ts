import type { Page } from '@playwright/test';
import { expect, mainNav, signIn, test } from './support/fixtures.ts';
import { uniqueName } from './support/hearth.ts';
import { photo, processed, upload } from './support/media.ts';
import { captureScreen } from './support/screens.ts';
import { callThem } from './support/share.ts';

const viewer = (page: Page) => page.getByRole('dialog', { name: 'Photo viewer' });

test('Grandma sees, in her photo’s Details, the albums and links that show it, keeps it off an album’s link and takes it out of an album someone else put it in', async ({
  page,
  hearth,
  owner,
}, testInfo) => {
  test.setTimeout(120_000);
  const grandma = await hearth.api.member(owner, uniqueName('grandma'));
  const emma = await hearth.api.member(owner, uniqueName('emma'));
  const emmaName = await callThem(hearth, emma, 'Emma');
  await callThem(hearth, grandma, 'Grandma');

  // Grandma's roses, in her Garden folder; Emma may look at the folder, and Grandma made a link to it.
  const garden = await hearth.api.ok('POST', '/nodes/folder', grandma.access, { name: 'Garden' });
  const roses = await upload(hearth.api, grandma, await photo('2024:06:01 10:00:00', 800, 600), 'Roses.jpg', garden.id);
  await processed(hearth.api, grandma, [roses]);
  await hearth.api.ok('POST', `/nodes/${garden.id}/permissions`, grandma.access, { user_id: emma.id, role: 'viewer' });
  await hearth.api.ok('POST', `/nodes/${garden.id}/share`, grandma.access, {});
  // Emma put them in her own album Family, with a link to it.
  const family = await hearth.api.ok('POST', '/albums', emma.access, { name: 'Family', node_ids: [roses] });
  await hearth.api.ok('POST', `/albums/${family.id}/share`, emma.access, {});
  // Emma's album Summer: Grandma added them herself, and let its link show them.
  const summer = await hearth.api.ok('POST', '/albums', emma.access, { name: 'Summer' });
  await hearth.api.ok('POST', `/albums/${summer.id}/members`, emma.access, { user_id: grandma.id, role: 'contributor' });
  await hearth.api.ok('POST', `/albums/${summer.id}/items`, grandma.access, { node_ids: [roses], on_links: true });
  const summerLink = await hearth.api.ok('POST', `/albums/${summer.id}/share`, emma.access, {});

  await signIn(page, grandma);
  await mainNav(page).locator('visible=true').getByRole('link', { name: 'Photos' }).click();
  await page.getByRole('button', { name: /^Photo Roses\.jpg/ }).click();
  await viewer(page).getByRole('button', { name: 'Details' }).click();
  const details = viewer(page).getByRole('complementary', { name: 'Details' });
  const albums = details.getByRole('list', { name: 'Albums showing this photo' });
  const familyEntry = albums.getByRole('listitem').filter({ hasText: '“Family”' });
  const summerEntry = albums.getByRole('listitem').filter({ hasText: '“Summer”' });
  await expect(familyEntry).toContainText(`${emmaName}’s album`);
  await expect(familyEntry).toContainText(`${emmaName} put it there. Only the people you shared it with see it there, and never its link.`);
  await expect(summerEntry).toContainText('Everyone in the album sees it: 2 people.');
  const onSummerLink = summerEntry.getByRole('checkbox', { name: /Show on the link to “Summer”/ });
  await expect(onSummerLink).toBeChecked();
  await expect(details.getByRole('list', { name: 'Links showing this photo' })).toContainText('A link to the folder “Garden”');
  await familyEntry.scrollIntoViewIfNeeded();
  await captureScreen(page, testInfo, 'photo-appearances');

  // Off Summer's link: a visitor of the link no longer gets it.
  await onSummerLink.uncheck();
  await expect(details.getByRole('status')).toHaveText('The link to “Summer” does not show it any more.');
  await expect(onSummerLink).not.toBeChecked();
  expect((await hearth.api.call('GET', `/s/${summerLink.token}/download?node_id=${roses}`)).status).toBe(404);

  // Out of Emma's Family: gone from it, for Emma too; still in Grandma's Garden.
  await familyEntry.getByRole('button', { name: 'Take out of “Family”' }).click();
  await expect(details.getByRole('status')).toHaveText('Taken out of “Family”. It is still where it was.');
  await expect(albums.getByRole('listitem')).toHaveCount(1);
  await captureScreen(page, testInfo, 'photo-appearances-taken-out');
  expect((await hearth.api.ok('GET', `/albums/${family.id}/items`, emma.access)).items).toEqual([]);
  expect((await hearth.api.ok('GET', `/nodes/${roses}`, grandma.access)).parent_id).toBe(garden.id);
});
