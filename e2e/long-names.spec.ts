import { expect, signIn, test } from './support/fixtures.ts';
import { captureScreen } from './support/screens.ts';

/*
 * Issue 19, findings 13 and 14: a too-long name got "avoid slashes, invisible characters…",
 * an upload with one failed, and a file the server refused for good became a banner on every
 * page offering a retry that could never work.
 */

const LONG_BASE = 'Our summer holiday at the lake with grandma and the dog '.repeat(5).trim(); // 284 characters

test('renaming to a 300-character name says it is too long and what the limit is, not "avoid slashes"', async ({
  page,
  member,
  hearth,
}, testInfo) => {
  await hearth.api.ok('POST', '/nodes/folder', member.access, { name: 'Holidays' });
  await signIn(page, member);
  await page.getByRole('button', { name: 'More for Holidays' }).click();
  await page.getByRole('list', { name: 'Actions for Holidays' }).getByRole('button', { name: 'Rename', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Rename' });
  await dialog.getByLabel('New name').fill(`${LONG_BASE} 2024`);
  await dialog.getByRole('button', { name: 'Rename' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(/That name is too long\. A name can hold up to 255 plain letters/);
  await expect(dialog.getByText(/slashes|invisible/)).toHaveCount(0);
  await captureScreen(page, testInfo, 'rename-too-long');
});

test('a file whose name is too long is offered under a shorter name that keeps its extension, and arrives under it', async ({
  page,
  member,
  hearth,
}, testInfo) => {
  await signIn(page, member);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload' }).click();
  await (
    await chooser
  ).setFiles([
    { name: `${LONG_BASE}.jpg`, mimeType: 'image/jpeg', buffer: Buffer.from('not really a photo') },
    { name: 'short.txt', mimeType: 'text/plain', buffer: Buffer.from('fits') },
  ]);
  const question = page.getByRole('dialog', { name: 'This file’s name is too long' });
  await expect(question).toBeVisible();
  await expect(question.getByRole('list', { name: 'New names' })).toContainText('.jpg');
  await captureScreen(page, testInfo, 'upload-name-too-long');
  await question.getByRole('button', { name: 'Shorten the name and upload' }).click();

  await expect(page.getByRole('region', { name: 'Uploads' }).getByText('2 files uploaded')).toBeVisible({ timeout: 30_000 });
  const names = (await hearth.api.ok('GET', '/nodes?parent_id=root', member.access)).items.map((n: { name: string }) => n.name);
  const long = names.find((n: string) => n.startsWith('Our summer'));
  expect(long, JSON.stringify(names)).toBeTruthy();
  expect(Buffer.byteLength(long)).toBeLessThanOrEqual(255);
  expect(long.endsWith('.jpg')).toBe(true);
  expect(LONG_BASE.startsWith(long.slice(0, -4))).toBe(true);
  expect(names).toContain('short.txt');
});

test('declining the shorter name skips that file and sends the rest', async ({ page, member, hearth }) => {
  await signIn(page, member);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload' }).click();
  await (
    await chooser
  ).setFiles([
    { name: `${LONG_BASE}.png`, mimeType: 'image/png', buffer: Buffer.from('a') },
    { name: `${LONG_BASE} again.png`, mimeType: 'image/png', buffer: Buffer.from('b') },
    { name: 'kept.txt', mimeType: 'text/plain', buffer: Buffer.from('kept') },
  ]);
  const question = page.getByRole('dialog', { name: '2 files have names that are too long' });
  await question.getByRole('button', { name: 'Don’t upload them' }).click();
  await expect(page.getByRole('region', { name: 'Uploads' }).getByText('1 file uploaded')).toBeVisible({ timeout: 30_000 });
  const names = (await hearth.api.ok('GET', '/nodes?parent_id=root', member.access)).items.map((n: { name: string }) => n.name);
  expect(names).toEqual(['kept.txt']);
});

test('a file the server refuses for good is reported once with its reason, never offered again, and dismissed for good', async ({
  page,
  member,
  hearth,
  owner,
}, testInfo) => {
  // A storage limit smaller than the file: the server answers 507 quota_exceeded, whatever is retried.
  await hearth.api.ok('PATCH', `/admin/users/${member.id}`, owner.access, { quota_bytes: 1024 });
  await signIn(page, member);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload' }).click();
  await (await chooser).setFiles([{ name: 'Birthday video.mp4', mimeType: 'video/mp4', buffer: Buffer.alloc(64 * 1024, 1) }]);
  const panel = page.getByRole('region', { name: 'Uploads' });
  await expect(panel.getByText('1 video not uploaded')).toBeVisible({ timeout: 30_000 });
  await panel.getByRole('button', { name: '1 video not uploaded', expanded: false }).click();
  const row = panel.getByRole('listitem').filter({ hasText: 'Birthday video.mp4' });
  await expect(row.getByText(/Not enough space left/)).toBeVisible();
  // Trying again cannot help: no Resume, only Dismiss.
  await expect(row.getByRole('button', { name: 'Resume Birthday video.mp4' })).toHaveCount(0);
  await expect(row.getByRole('button', { name: 'Dismiss Birthday video.mp4' })).toBeVisible();

  // After a reload the refusal is said once more, with its reason, and nothing asks to choose it again.
  await page.reload();
  const banner = page.getByRole('status').filter({ hasText: 'was not uploaded' });
  await expect(banner.getByText('“Birthday video.mp4” was not uploaded.')).toBeVisible();
  await expect(banner.getByText(/Not enough space left/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Choose files again' })).toHaveCount(0);
  await expect(page.getByText(/choose it again/)).toHaveCount(0);
  await captureScreen(page, testInfo, 'upload-refused');
  await banner.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('was not uploaded')).toHaveCount(0);

  // Gone for good: another page, another reload.
  await page.goto('/recent');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Recent' })).toBeVisible();
  await expect(page.getByText('was not uploaded')).toHaveCount(0);
  await expect(page.getByText(/not sent/)).toHaveCount(0);
  await hearth.api.ok('PATCH', `/admin/users/${member.id}`, owner.access, { quota_bytes: null });
});

test('a file that can still continue is offered again after a reload, by a short form of its name', async ({ page, member }) => {
  await signIn(page, member);
  // What the tab had under way when it was closed: the browser kept its name, never its bytes.
  const name = `${'Very long name of a video from the school concert '.repeat(3)}.mov`;
  await page.evaluate(
    ({ account, name }) =>
      localStorage.setItem(
        'hearth.unsent',
        JSON.stringify([{ id: 'x1', account, name, size: 1234, lastModified: 1, parentId: null, replaceNodeId: null }]),
      ),
    { account: member.id, name },
  );
  await page.reload();
  const banner = page.getByRole('status').filter({ hasText: 'not sent' });
  await expect(banner.getByText('1 file not sent: choose it again.')).toBeVisible();
  await expect(banner.getByRole('button', { name: 'Choose files again' })).toBeVisible();
  // The name is shortened in the middle, keeping its end: not the whole 150 characters on every page.
  const shown = await banner.locator('span[title]').first().textContent();
  expect(shown!.length).toBeLessThan(45);
  expect(shown!.endsWith('.mov')).toBe(true);
  await expect(banner).toContainText('Nothing is deleted: it stays on this device');
  await banner.getByRole('button', { name: 'Don’t send it' }).click();
  await expect(page.getByText(/not sent/)).toHaveCount(0);
});
