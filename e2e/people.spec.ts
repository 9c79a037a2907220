import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, signIn, test } from './support/fixtures.ts';
import { uniqueName } from './support/hearth.ts';
import { processed, upload } from './support/media.ts';
import { captureScreen } from './support/screens.ts';

const FACES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../server/test/fixtures/faces');

// Face finding is off in the other specs' servers (e2e/support/serve.ts): this one looks.
test.use({ serverConfig: { findFaces: true } });

test('Mum finds the people in her photos under People, names one Grandma, and search in Photos finds her photos', async ({
  page,
  hearth,
  owner,
}, testInfo) => {
  test.setTimeout(180_000);
  const mum = await hearth.api.member(owner, uniqueName('mum'));
  const ids: string[] = [];
  for (const name of ['franck-01829.jpg', 'franck-02683.jpg', 'franck-04117.jpg', 'cage-1.jpg', 'cage-2.jpg']) {
    ids.push(await upload(hearth.api, mum, await fs.readFile(path.join(FACES, name)), name));
  }
  await processed(hearth.api, mum, ids);

  await signIn(page, mum);
  await page.goto('/people');
  const people = page.getByRole('list', { name: 'People' });
  // Faces are found in the background: the page asks again until every photo is looked at.
  await expect(people.getByRole('listitem')).toHaveCount(2, { timeout: 120_000 });
  await expect(people.getByRole('listitem').first()).toContainText('3 photos');
  await expect(people.getByRole('listitem').nth(1)).toContainText('2 photos');

  await people.getByRole('button', { name: 'Name this person (3 photos)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Name this person' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Grandma');
  await dialog.getByRole('button', { name: 'Save name' }).click();
  await expect(dialog).toBeHidden();
  await expect(people.getByRole('listitem').first()).toContainText('Grandma');
  await captureScreen(page, testInfo, 'people');

  // Photos' search finds her by name.
  await page.goto('/gallery?q=grandma');
  for (const name of ['franck-01829.jpg', 'franck-02683.jpg', 'franck-04117.jpg']) {
    await expect(page.getByRole('button', { name: new RegExp(`^Photo ${name.replace('.', '\\.')}`) })).toBeVisible();
  }
  await expect(page.getByRole('button', { name: /^Photo cage-1\.jpg/ })).toHaveCount(0);
});
