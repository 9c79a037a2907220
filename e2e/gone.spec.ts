import { expect, signIn, test } from './support/fixtures.ts';
import { uniqueName } from './support/hearth.ts';

// Addresses kept from before (a bookmark, a notification, another tab) to what is no longer there.
const GONE = [
  { path: '/albums/01JGONEALBUM00000000000000', heading: 'This album is not here', back: 'Back to albums', lands: /\/albums$/ },
  { path: '/people/01JGONEPERSON0000000000000', heading: 'This person is not here', back: 'Back to People', lands: /\/people$/ },
];

test('an album, a person or a photo that is not there any more says so and leads back to where it was listed', async ({
  page,
  hearth,
  owner,
}) => {
  const mum = await hearth.api.member(owner, uniqueName('mum'));
  await signIn(page, mum);
  for (const gone of GONE) {
    await page.goto(gone.path);
    const notice = page.getByRole('alert').filter({ has: page.getByRole('heading', { name: gone.heading }) });
    await expect(notice).toBeVisible();
    await notice.getByRole('link', { name: gone.back }).click();
    await expect(page).toHaveURL(gone.lands);
  }
  await page.goto('/gallery/01JGONEPHOTO00000000000000');
  const missing = page.getByRole('alert').filter({ hasText: 'This photo is not here any more' });
  await expect(missing).toBeVisible();
  await missing.getByRole('link', { name: 'Back to photos' }).click();
  await expect(page).toHaveURL(/\/gallery$/);
});
