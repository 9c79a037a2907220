import { expect, signIn, test } from './support/fixtures.ts';
import { photo, processed, upload } from './support/media.ts';

// An unlock of a few seconds, so its end can be waited for (the app's is a few minutes).
test.use({ serverConfig: { privateUnlockMs: 6_000 } });

test('open Private locks itself again when the unlock runs out: what was shown goes, and the password is asked again', async ({
  page,
  hearth,
  member,
}) => {
  const id = await upload(hearth.api, member, await photo('2024:03:01 10:00:00'), 'Hidden.jpg');
  await processed(hearth.api, member, [id]);
  await hearth.api.ok('POST', `/nodes/${id}/private`, member.access);
  await signIn(page, member);
  await page.goto('/private');
  await page.getByLabel('Your password').fill(member.password);
  await page.getByRole('button', { name: 'Open Private' }).click();
  const inPrivate = page.getByRole('region', { name: 'Photos in Private' });
  await expect(inPrivate.getByRole('button', { name: /^Photo Hidden\.jpg/ })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Private is locked' })).toBeVisible({ timeout: 15_000 });
  await expect(inPrivate).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Hidden\.jpg/ })).toHaveCount(0);
});
