import { expect, signIn, test } from './support/fixtures.ts';
import { captureScreen } from './support/screens.ts';

// The name a person gives this device for its backup ("Name this device") is its name in Your
// devices too (and in "… has not backed up for 7 days"), not the browser's ("Chrome on Linux").
test('a device named under Back up this phone is listed by that name in Your devices, on the server too', async ({
  page,
  hearth,
  member,
}, testInfo) => {
  await signIn(page, member);
  const mine = async () =>
    ((await hearth.api.ok('GET', '/sessions', member.access)).items as { device_name: string | null; last_seen_at: number }[]).map(
      (s) => s.device_name,
    );
  await page.goto('/account');
  const devices = page.getByRole('region', { name: 'Your devices' });
  const thisOne = devices.getByRole('listitem').filter({ hasText: 'This device' });
  await expect(thisOne).toBeVisible();
  const browsersName = (await thisOne.locator('strong').textContent()) ?? '';
  expect(browsersName).not.toBe('Kitchen iPad');

  const settings = page.getByRole('region', { name: /^Back up (this phone|photos from this computer)$/ });
  await settings.getByRole('button', { name: 'Name this device' }).click();
  await settings.getByLabel('This device’s name').fill('Kitchen iPad');
  await settings.getByRole('button', { name: 'Save' }).click();
  await expect(settings).toContainText('Photos backed up from this device go into Phone backup/Kitchen iPad');

  await expect(thisOne.locator('strong')).toHaveText('Kitchen iPad');
  await expect(devices.getByRole('button', { name: 'Rename Kitchen iPad' })).toBeVisible();
  await expect.poll(mine).toContain('Kitchen iPad');
  // After a reload, still the given name (the server's, not only this page's).
  await page.reload();
  await expect(devices.getByRole('listitem').filter({ hasText: 'This device' }).locator('strong')).toHaveText('Kitchen iPad');
  await devices.scrollIntoViewIfNeeded();
  await captureScreen(page, testInfo, 'devices-given-name');
});
