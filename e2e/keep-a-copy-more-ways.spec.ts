import { uniqueName, type Hearth } from './support/hearth.ts';
import { expect, mainNav, signIn, test } from './support/fixtures.ts';
import { photo, processed, upload } from './support/media.ts';
import { callThem, linkPath, makeLink } from './support/share.ts';
import { captureScreen } from './support/screens.ts';

type Row = { id: string; name: string; owner_id: string };

/** What is in the person's "Kept copies" folder, by name. */
async function keptNames(hearth: Hearth, access: string): Promise<string[]> {
  const top = (await hearth.api.ok('GET', '/nodes?parent_id=root', access)).items as Row[];
  const kept = top.find((node) => node.name === 'Kept copies');
  if (!kept) return [];
  const inside = (await hearth.api.ok('GET', `/nodes?parent_id=${kept.id}`, access)).items as Row[];
  return inside.map((node) => node.name).sort();
}

test("Dad opens Grandma's link to one photo while signed in and keeps a copy from its page and from its viewer; a visitor is not offered it", async ({
  page,
  hearth,
  owner,
  member,
  browser,
  baseURL,
}, testInfo) => {
  test.setTimeout(120_000);
  const gran = await hearth.api.member(owner, uniqueName('gran'));
  const cake = await upload(hearth.api, gran, await photo('2022:03:12 16:00:00', 800, 600), 'IMG_5001.jpg');
  await processed(hearth.api, gran, [cake]);
  const link = await makeLink(hearth, gran, cake);
  const usedBefore = (await hearth.api.ok('GET', '/me', member.access)).quota.used as number;

  await signIn(page, member);
  const seen: string[] = [];
  page.on('request', (request) => seen.push(request.url()));
  await page.goto(linkPath(link));
  await expect(page.getByRole('link', { name: 'Download' })).toBeVisible();
  await page.getByRole('button', { name: 'Keep a copy' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Kept a copy in your files, in Kept copies.' })).toBeVisible();
  await captureScreen(page, testInfo, 'keep-a-copy-single-file-link');
  expect(await keptNames(hearth, member.access)).toEqual(['IMG_5001.jpg']);
  const used = (await hearth.api.ok('GET', '/me', member.access)).quota.used as number;
  expect(used).toBeGreaterThan(usedBefore);

  // From the photo opened full screen, too (a second copy, under its own name).
  await page.getByRole('button', { name: 'Open IMG_5001.jpg' }).click();
  const viewer = page.getByRole('dialog', { name: 'Photo viewer' });
  await viewer.getByRole('button', { name: 'Keep a copy' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Kept a copy in your files' })).toBeVisible();
  await expect.poll(async () => (await keptNames(hearth, member.access)).length).toBe(2);
  // The token went in a header only: no address outside the link's own routes named it.
  const leaked = seen.filter((url) => {
    const { pathname, search } = new URL(url);
    return (
      (url.includes(link.token) && !pathname.startsWith(`/s/${link.token}`) && !pathname.startsWith(`/api/v1/s/${link.token}`)) ||
      search.includes(link.token)
    );
  });
  expect(leaked).toEqual([]);

  // Someone with no account here sees the photo and Download, and no Keep a copy.
  const { viewport, deviceScaleFactor, isMobile, hasTouch, userAgent } = testInfo.project.use;
  const visitor = await browser.newContext({ baseURL, viewport, deviceScaleFactor, isMobile, hasTouch, userAgent });
  const theirs = await visitor.newPage();
  await theirs.goto(linkPath(link));
  await expect(theirs.getByRole('link', { name: 'Download' })).toBeVisible();
  await expect(theirs.getByRole('button', { name: 'Keep a copy' })).toHaveCount(0);
  await visitor.close();
});

test("Mum keeps a copy of a file Dad shared with her from Shared with me's menu, and of a photo in a folder he shared, from its menu", async ({
  page,
  hearth,
  owner,
}, testInfo) => {
  test.setTimeout(120_000);
  const dad = await hearth.api.member(owner, uniqueName('dad'));
  const mum = await hearth.api.member(owner, uniqueName('mum'));
  await callThem(hearth, dad, 'Dad');
  const folder = await hearth.api.ok('POST', '/nodes/folder', dad.access, { name: 'School letters' });
  const letter = await upload(hearth.api, dad, await photo('2024:01:10 08:00:00', 800, 600), 'Letter.jpg', folder.id);
  const report = await upload(hearth.api, dad, await photo('2024:02:10 08:00:00', 800, 600), 'Report.jpg');
  await processed(hearth.api, dad, [letter, report]);
  await hearth.api.ok('POST', `/nodes/${folder.id}/permissions`, dad.access, { user_id: mum.id, role: 'viewer' });
  await hearth.api.ok('POST', `/nodes/${report}/permissions`, dad.access, { user_id: mum.id, role: 'viewer' });

  await signIn(page, mum);
  await mainNav(page).locator('visible=true').getByRole('link', { name: 'Shared' }).click();
  await expect(page.getByRole('heading', { name: 'Shared with me' })).toBeVisible();
  await page.getByRole('button', { name: 'More for Report.jpg' }).click();
  const sheet = page.getByRole('dialog', { name: 'Report.jpg' });
  await sheet.getByRole('button', { name: 'Keep a copy' }).click();
  await expect(sheet.getByRole('status').filter({ hasText: 'Kept a copy in your files, in Kept copies.' })).toBeVisible();
  await captureScreen(page, testInfo, 'keep-a-copy-shared-with-me');
  expect(await keptNames(hearth, mum.access)).toEqual(['Report.jpg']);
  await sheet.getByRole('button', { name: 'Close' }).click();

  // Inside the shared folder, a file's menu offers it; her own files' menus do not.
  await page.getByRole('link', { name: 'Open School letters' }).click();
  await page.getByRole('button', { name: 'More for Letter.jpg' }).click();
  const folderSheet = page.getByRole('dialog', { name: 'Letter.jpg' });
  await folderSheet.getByRole('button', { name: 'Keep a copy' }).click();
  await expect(folderSheet.getByRole('status').filter({ hasText: 'Kept a copy in your files' })).toBeVisible();
  expect(await keptNames(hearth, mum.access)).toEqual(['Letter.jpg', 'Report.jpg']);
  await folderSheet.getByRole('link', { name: 'Open Kept copies' }).click();
  await expect(page.getByRole('heading', { name: 'Kept copies', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'More for Letter.jpg' }).click();
  await expect(page.getByRole('dialog', { name: 'Letter.jpg' }).getByRole('button', { name: 'Keep a copy' })).toHaveCount(0);
});
