import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, signIn, test } from './support/fixtures.ts';
import { processed, upload } from './support/media.ts';
import { captureScreen } from './support/screens.ts';

const FACES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../server/test/fixtures/faces');

// Face finding is off in the other specs' servers (e2e/support/serve.ts): this one looks.
test.use({ serverConfig: { findFaces: true } });

test('the owner watches face finding in Manage, switches it off, gives it less of the computer, and both hold after a reload', async ({
  page,
  hearth,
  owner,
}, testInfo) => {
  test.setTimeout(180_000);
  const ids: string[] = [];
  for (const name of ['franck-01829.jpg', 'cage-1.jpg', 'obama.jpg']) {
    ids.push(await upload(hearth.api, owner, await fs.readFile(path.join(FACES, name)), name));
  }
  await processed(hearth.api, owner, ids);

  await signIn(page, owner);
  await page.goto('/console/storage');
  const section = page.getByRole('region', { name: 'People in photos' });
  // Live: the page is not reloaded while the photos are looked at (faces.progress events).
  await expect(section.getByText('3 of 3 photos looked at')).toBeVisible({ timeout: 120_000 });
  await expect(section.getByRole('progressbar', { name: 'Photos looked at for faces' })).toHaveAttribute('aria-valuenow', '100');
  const findFaces = section.getByRole('switch', { name: /Find faces/ });
  await expect(findFaces).toBeChecked();
  await expect(section.getByRole('radio', { name: /Normal/ })).toBeChecked();

  // Switched off: a new photo waits.
  await findFaces.uncheck();
  await expect(section.getByText(/^Paused\./)).toBeVisible();
  const more = await upload(hearth.api, owner, await fs.readFile(path.join(FACES, 'queen.jpg')), 'queen.jpg');
  await processed(hearth.api, owner, [more]);
  await section.getByRole('radio', { name: /Gentle/ }).check();
  await expect(section.getByRole('radio', { name: /Gentle/ })).toBeChecked();

  await page.reload();
  await expect(section.getByText('3 of 4 photos looked at')).toBeVisible();
  await expect(section.getByText('Paused. 1 photo waits until you switch it back on.')).toBeVisible();
  await expect(findFaces).not.toBeChecked();
  await expect(section.getByRole('radio', { name: /Gentle/ })).toBeChecked();
  await section.scrollIntoViewIfNeeded();
  await captureScreen(page, testInfo, 'face-finding');

  // Back on: the waiting photo is looked at, at the gentle pace, and the page says so by itself.
  await findFaces.check();
  await expect(section.getByText('4 of 4 photos looked at')).toBeVisible({ timeout: 120_000 });
  await expect(section.getByText(/Every photo has been looked at/)).toBeVisible();
});
