import { uniqueName } from './support/hearth.ts';
import { expect, mainNav, signIn, test } from './support/fixtures.ts';
import { photo, processed, upload } from './support/media.ts';
import { callThem, linkPath } from './support/share.ts';
import { captureScreen } from './support/screens.ts';

test("Mum keeps a copy of Dad's photo from their album and of one of his partner photos: her own files, charged to her, still there once Dad deletes his", async ({
  page,
  hearth,
  owner,
}, testInfo) => {
  test.setTimeout(120_000);
  const dad = await hearth.api.member(owner, uniqueName('dad'));
  const mum = await hearth.api.member(owner, uniqueName('mum'));
  await callThem(hearth, dad, 'Dad');
  const lake = await upload(hearth.api, dad, await photo('2019:05:04 15:30:00', 800, 600), 'IMG_3001.jpg');
  const hike = await upload(hearth.api, dad, await photo('2018:09:09 09:00:00', 800, 600), 'IMG_3002.jpg');
  const hers = await upload(hearth.api, mum, await photo('2019:05:05 10:00:00', 800, 600), 'IMG_3003.jpg');
  await processed(hearth.api, dad, [lake, hike]);
  await processed(hearth.api, mum, [hers]);
  const album = await hearth.api.ok('POST', '/albums', dad.access, { name: 'The lake', node_ids: [lake] });
  await hearth.api.ok('POST', `/albums/${album.id}/members`, dad.access, { user_id: mum.id, role: 'viewer' });
  await hearth.api.ok('POST', '/partner-shares', dad.access, { user_id: mum.id });
  const usedBefore = (await hearth.api.ok('GET', '/me', mum.access)).quota.used as number;

  // From the album shared with her.
  await signIn(page, mum);
  await page.goto(`/albums/${album.id}`);
  await page.getByRole('button', { name: /^Photo IMG_3001\.jpg/ }).click();
  const viewer = page.getByRole('dialog', { name: 'Photo viewer' });
  await viewer.getByRole('button', { name: 'Keep a copy' }).click();
  await expect(viewer.getByRole('status').filter({ hasText: 'Kept a copy in your files, in Kept copies.' })).toBeVisible();
  await captureScreen(page, testInfo, 'keep-a-copy');
  const top = (await hearth.api.ok('GET', '/nodes?parent_id=root', mum.access)).items as { id: string; name: string; owner_id: string }[];
  const kept = top.find((node) => node.name === 'Kept copies' && node.owner_id === mum.id)!;
  expect(kept).toBeTruthy();
  const inKept = async () =>
    (await hearth.api.ok('GET', `/nodes?parent_id=${kept.id}`, mum.access)).items as { id: string; name: string; size: number }[];
  const [copy] = await inKept();
  expect(copy!.name).toBe('IMG_3001.jpg');
  expect((await hearth.api.ok('GET', '/me', mum.access)).quota.used).toBe(usedBefore + copy!.size);

  // From Photos: Dad's partner photo offers it; her own does not.
  await viewer.getByRole('button', { name: 'Back to the album' }).click();
  await mainNav(page).locator('visible=true').getByRole('link', { name: 'Photos' }).click();
  await page.goto(`/gallery/${hike}`);
  await expect(viewer).toBeVisible();
  await viewer.getByRole('button', { name: 'Keep a copy' }).click();
  await expect(viewer.getByRole('status').filter({ hasText: 'Kept a copy' })).toBeVisible();
  await page.goto(`/gallery/${hers}`);
  await expect(viewer).toBeVisible();
  await expect(viewer.getByRole('button', { name: 'Keep a copy' })).toHaveCount(0);
  expect((await inKept()).map((node) => node.name).sort()).toEqual(['IMG_3001.jpg', 'IMG_3002.jpg']);

  // Dad deletes his for good: Mum's copy is hers, and opens from her Kept copies.
  await hearth.api.ok('DELETE', `/nodes/${lake}/permanent`, dad.access);
  await page.goto(`/files/${kept.id}`);
  await expect(page.getByRole('list', { name: 'Files and folders' }).getByRole('listitem')).toHaveCount(2);
  const download = await hearth.api.call('GET', `/nodes/${copy!.id}/download`, mum.access);
  expect(download.status).toBe(200);
});

test("Dad, signed in on this browser, opens Grandma's album link and keeps a copy of a photo in his own files", async ({
  page,
  hearth,
  owner,
  member,
}, testInfo) => {
  test.setTimeout(120_000);
  const gran = await hearth.api.member(owner, uniqueName('gran'));
  const cake = await upload(hearth.api, gran, await photo('2022:03:12 16:00:00', 800, 600), 'IMG_4001.jpg');
  await processed(hearth.api, gran, [cake]);
  const album = await hearth.api.ok('POST', '/albums', gran.access, { name: 'Birthday', node_ids: [cake] });
  const link = await hearth.api.ok('POST', `/albums/${album.id}/share`, gran.access, {});

  await signIn(page, member);
  const seen: string[] = [];
  page.on('request', (request) => seen.push(request.url()));
  await page.goto(linkPath(link));
  await page.getByRole('button', { name: 'Photo 1 of 1' }).click();
  const viewer = page.getByRole('dialog', { name: 'Photo viewer' });
  await viewer.getByRole('button', { name: 'Keep a copy' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Kept a copy in your files, in Kept copies.' })).toBeVisible();
  await captureScreen(page, testInfo, 'keep-a-copy-from-link');
  // The link's token went in a header: no address the browser asked for names it outside the link's own routes.
  expect(
    seen.filter(
      (url) =>
        url.includes(link.token) &&
        !new URL(url).pathname.startsWith(`/s/${link.token}`) &&
        !new URL(url).pathname.startsWith(`/api/v1/s/${link.token}`),
    ),
  ).toEqual([]);
  const top = (await hearth.api.ok('GET', '/nodes?parent_id=root', member.access)).items as { id: string; name: string }[];
  const kept = top.find((node) => node.name === 'Kept copies')!;
  const inside = (await hearth.api.ok('GET', `/nodes?parent_id=${kept.id}`, member.access)).items as { name: string; owner_id: string }[];
  expect(inside.map((node) => [node.name, node.owner_id])).toEqual([['IMG_4001.jpg', member.id]]);
});

test('someone without an account on the same link is not offered Keep a copy', async ({ page, hearth, owner }) => {
  const gran = await hearth.api.member(owner, uniqueName('gran'));
  const tea = await upload(hearth.api, gran, await photo('2022:03:13 16:00:00', 800, 600), 'IMG_4002.jpg');
  await processed(hearth.api, gran, [tea]);
  const album = await hearth.api.ok('POST', '/albums', gran.access, { name: 'Tea', node_ids: [tea] });
  const link = await hearth.api.ok('POST', `/albums/${album.id}/share`, gran.access, {});
  await page.goto(linkPath(link));
  await page.getByRole('button', { name: 'Photo 1 of 1' }).click();
  const viewer = page.getByRole('dialog', { name: 'Photo viewer' });
  await expect(viewer.getByRole('button', { name: 'Download' })).toBeVisible();
  await expect(viewer.getByRole('button', { name: 'Keep a copy' })).toHaveCount(0);
});
