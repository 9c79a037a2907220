import type { Page } from '@playwright/test';
import { expect, mainNav, signIn, test } from './support/fixtures.ts';
import { photo, processed, upload } from './support/media.ts';
import { captureScreen } from './support/screens.ts';

async function openPrivate(page: Page, password: string): Promise<void> {
  await mainNav(page).locator('visible=true').getByRole('link', { name: 'My files' }).click();
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Private' }).click();
  await expect(page.getByRole('heading', { name: 'Private', level: 1 })).toBeVisible();
  await page.getByLabel('Your password').fill(password);
  await page.getByRole('button', { name: 'Open Private' }).click();
}

test('“Move out” puts a photo back in the folder it came from and says so; from a folder since trashed, it goes to the top of My files', async ({
  page,
  hearth,
  member,
}, testInfo) => {
  test.setTimeout(90_000);
  const holidays = await hearth.api.ok('POST', '/nodes/folder', member.access, { name: 'Holidays' });
  const old = await hearth.api.ok('POST', '/nodes/folder', member.access, { name: 'Old stuff' });
  const beach = await upload(hearth.api, member, await photo('2024:07:01 10:00:00'), 'Beach.jpg', holidays.id);
  const note = await upload(hearth.api, member, Buffer.from('old note'), 'Note.txt', old.id);
  await processed(hearth.api, member, [beach]);
  await hearth.api.ok('POST', `/nodes/${beach}/private`, member.access);
  await hearth.api.ok('POST', `/nodes/${note}/private`, member.access);
  await hearth.api.ok('DELETE', `/nodes/${old.id}`, member.access);

  await signIn(page, member);
  await openPrivate(page, member.password);
  await page.getByRole('button', { name: 'Move Beach.jpg out of Private' }).click();
  await expect(page.getByText('Moved to Holidays.')).toBeVisible();
  await captureScreen(page, testInfo, 'private-moved-out');
  await page.getByRole('button', { name: 'Move Note.txt out of Private' }).click();
  await expect(page.getByText('Moved to My files.')).toBeVisible();

  // Where the page said: Beach in Holidays, Note at the top of My files.
  await mainNav(page).locator('visible=true').getByRole('link', { name: 'My files' }).click();
  const files = page.getByRole('list', { name: 'Files and folders' });
  await expect(files.getByText('Note.txt')).toBeVisible();
  await files.getByText('Holidays').click();
  await expect(files.getByText('Beach.jpg')).toBeVisible();
});
