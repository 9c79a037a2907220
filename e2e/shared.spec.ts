import { uniqueName } from './support/hearth.ts';
import { expect, signIn, test } from './support/fixtures.ts';
import { callThem } from './support/share.ts';
import { captureScreen } from './support/screens.ts';

test('a folder shared with a family member in the Share dialog shows up for them under "Shared with me" and in My files, saying who shared it', async ({
  browser,
  page,
  member,
  hearth,
  owner,
  baseURL,
}, testInfo) => {
  const sister = await hearth.api.member(owner, uniqueName('sis'));
  const sisterName = await callThem(hearth, sister, 'Jo');
  const memberName = await callThem(hearth, member, 'Mum');
  await hearth.api.ok('POST', '/nodes/folder', member.access, { name: 'Family recipes' });

  // Shared from the files list, as a parent would.
  await signIn(page, member);
  await page.getByRole('button', { name: 'More for Family recipes' }).click();
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Share “Family recipes”' });
  await dialog.getByRole('tab', { name: 'Family' }).click();
  await dialog.getByLabel('Name').fill(sisterName);
  await dialog.getByRole('button', { name: `Add ${sisterName}` }).click();
  await expect(
    dialog.getByRole('list', { name: 'People with access' }).getByRole('listitem').filter({ hasText: sisterName }),
  ).toBeVisible();

  // The sister, on her own phone.
  const { viewport, deviceScaleFactor, isMobile, hasTouch, userAgent } = testInfo.project.use;
  const hers = await browser.newContext({ baseURL, viewport, deviceScaleFactor, isMobile, hasTouch, userAgent });
  const phone = await hers.newPage();
  await signIn(phone, sister);
  const list = phone.getByRole('list', { name: 'Files and folders' });
  const shared = phone.getByRole('list', { name: 'Shared with me' });
  await expect(list.getByRole('listitem').filter({ hasText: 'Family recipes' })).toContainText(`Shared by ${memberName}`);
  await phone.getByRole('navigation', { name: 'Main' }).locator('visible=true').getByRole('link', { name: 'Shared' }).click();
  await expect(phone.getByRole('heading', { name: 'Shared with me' })).toBeVisible();
  await expect(shared.getByRole('listitem')).toHaveCount(1);
  await expect(shared.getByRole('listitem').filter({ hasText: 'Family recipes' })).toContainText(`Shared by ${memberName}`);
  await captureScreen(phone, testInfo, 'shared-with-me');
  await hers.close();
});
