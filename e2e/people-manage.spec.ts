import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, signIn, test } from './support/fixtures.ts';
import { uniqueName } from './support/hearth.ts';
import { processed, upload } from './support/media.ts';
import { captureScreen } from './support/screens.ts';

const FACES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../server/test/fixtures/faces');
const FRANCK = ['franck-01829.jpg', 'franck-02683.jpg', 'franck-04117.jpg'];
const CAGE = ['cage-1.jpg', 'cage-2.jpg'];

// Face finding is off in the other specs' servers (e2e/support/serve.ts): this one looks.
test.use({ serverConfig: { findFaces: true } });

const photoTiles = (page: Page, of: string) =>
  page.getByRole('region', { name: `Photos of ${of}, newest first` }).getByRole('button', { name: /^Photo / });
const header = (page: Page) => page.locator('.person-head');

test("Mum opens Grandma's page from People, names her there, finds her by search and in a photo's details, puts two people together, moves the wrong faces out, and hides her and shows her again", async ({
  page,
  hearth,
  owner,
}, testInfo) => {
  test.setTimeout(240_000);
  const mum = await hearth.api.member(owner, uniqueName('mum'));
  const ids: string[] = [];
  for (const name of [...FRANCK, ...CAGE]) ids.push(await upload(hearth.api, mum, await fs.readFile(path.join(FACES, name)), name));
  await processed(hearth.api, mum, ids);

  await signIn(page, mum);
  await page.goto('/people');
  const people = page.getByRole('list', { name: 'People' });
  await expect(people.getByRole('listitem')).toHaveCount(2, { timeout: 120_000 });

  // Her page: her face, "Not named yet", her three photos in the timeline's tiles.
  await people.getByRole('link', { name: 'Open Not named yet (3 photos)' }).click();
  await expect(page).toHaveURL(/\/people\/[^/]+$/);
  const grandmaUrl = page.url();
  await expect(page.getByRole('heading', { name: 'Not named yet', level: 1 })).toBeVisible();
  await expect(header(page)).toContainText('3 photos');
  await expect(photoTiles(page, 'this person')).toHaveCount(3);

  // Named in place.
  await page.getByRole('button', { name: 'Add a name' }).click();
  await page.getByRole('textbox', { name: 'Their name' }).fill('Grandma');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Grandma', level: 1 })).toBeVisible();
  await expect(photoTiles(page, 'Grandma')).toHaveCount(3);
  for (const name of FRANCK)
    await expect(page.getByRole('button', { name: new RegExp(`^Photo ${name.replace('.', '\\.')}`) })).toBeVisible();
  await captureScreen(page, testInfo, 'person-page');

  // Search in Photos finds her; her photo's details say she is in it, and draw her face's box.
  await page.goto('/gallery?q=grandma');
  await expect(page.getByRole('button', { name: /^Photo franck-/ })).toHaveCount(3);
  await expect(page.getByRole('button', { name: /^Photo cage-/ })).toHaveCount(0);
  await page.getByRole('button', { name: /^Photo franck-01829\.jpg/ }).click();
  const viewer = page.getByRole('dialog', { name: 'Photo viewer' });
  await viewer.getByRole('button', { name: 'Details' }).click();
  const inPhoto = viewer.getByRole('list', { name: 'People in this photo' });
  await expect(inPhoto.getByRole('link')).toHaveCount(1);
  await expect(inPhoto.getByRole('link', { name: 'Open Grandma' })).toBeVisible();
  const boxes = viewer.getByRole('list', { name: 'Faces on the photo' });
  await expect(boxes).toHaveCount(0);
  await viewer.getByRole('button', { name: 'Show faces' }).click();
  await expect(viewer.getByRole('button', { name: 'Hide faces' })).toHaveAttribute('aria-pressed', 'true');
  await expect(boxes.getByRole('listitem')).toHaveCount(1);
  await expect(boxes.getByRole('listitem')).toHaveText('Grandma');
  // The box sits on the photo, where the face is: inside the picture, smaller than it.
  // Measured once both are laid out: the full picture takes the preview's place when it arrives.
  await expect(async () => {
    const photoBox = await viewer.locator('.viewer-marked').boundingBox();
    const faceBox = await boxes.getByRole('listitem').boundingBox();
    expect(photoBox).not.toBeNull();
    expect(faceBox).not.toBeNull();
    expect(faceBox!.x).toBeGreaterThanOrEqual(photoBox!.x);
    expect(faceBox!.y).toBeGreaterThanOrEqual(photoBox!.y);
    expect(faceBox!.x + faceBox!.width).toBeLessThanOrEqual(photoBox!.x + photoBox!.width + 1);
    expect(faceBox!.width).toBeLessThan(photoBox!.width);
  }).toPass({ timeout: 10_000 });
  if (testInfo.project.name === 'phone') await viewer.getByRole('button', { name: 'Close details' }).click();
  await captureScreen(page, testInfo, 'viewer-faces');
  if (testInfo.project.name === 'phone') await viewer.getByRole('button', { name: 'Details' }).click();
  await inPhoto.getByRole('link', { name: 'Open Grandma' }).click();
  await expect(page).toHaveURL(grandmaUrl);
  await expect(page.getByRole('heading', { name: 'Grandma', level: 1 })).toBeVisible();

  // The same person as someone else: asked first (a merge cannot be undone), then one person.
  await page.getByRole('button', { name: 'Same person as…' }).click();
  const choose = page.getByRole('dialog', { name: 'Who else is Grandma?' });
  await choose.getByRole('button', { name: 'Not named yet (2 photos)' }).click();
  const confirm = page.getByRole('dialog', { name: 'Put this person together with Grandma?' });
  await expect(confirm).toContainText('Their 2 photos join Grandma’s 3 photos: one person from now on, called Grandma.');
  await captureScreen(page, testInfo, 'merge-dialog');
  await confirm.getByRole('button', { name: 'Put together' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Put together: Grandma now has 5 photos.' })).toBeVisible();
  await expect(header(page)).toContainText('5 photos');
  await expect(photoTiles(page, 'Grandma')).toHaveCount(5);

  // Wrong faces: the two that are not her are picked out and moved; Undo puts them back.
  const notHer = async () => {
    await page.getByRole('button', { name: 'Fix wrong faces' }).click();
    const faces = page.getByRole('region', { name: 'Faces put with Grandma' }).getByRole('list', { name: 'Faces' });
    await expect(faces.getByRole('button')).toHaveCount(5);
    for (const name of CAGE) await faces.getByRole('button', { name: `Face in ${name}` }).click();
    await expect(faces.getByRole('button', { name: 'Face in cage-1.jpg' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByText('2 faces chosen')).toBeVisible();
    await captureScreen(page, testInfo, 'person-faces');
    await page.getByRole('button', { name: 'Not Grandma' }).click();
    await expect(page.getByRole('status').filter({ hasText: '2 faces moved out of Grandma.' })).toBeVisible();
    await expect(header(page)).toContainText('3 photos');
    await expect(faces.getByRole('button')).toHaveCount(3);
  };
  await notHer();
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(header(page)).toContainText('5 photos');
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(photoTiles(page, 'Grandma')).toHaveCount(5);

  // Or by choosing the photos she is not in: her face in each moves out.
  await page.getByRole('button', { name: 'Select', exact: true }).click();
  for (const name of CAGE) await page.getByRole('button', { name: new RegExp(`^Photo ${name.replace('.', '\\.')}`) }).click();
  await captureScreen(page, testInfo, 'person-select');
  await page.getByRole('button', { name: 'Not Grandma' }).click();
  await expect(page.getByRole('status').filter({ hasText: '2 faces moved out of Grandma.' })).toBeVisible();
  await expect(header(page)).toContainText('3 photos');
  await expect(photoTiles(page, 'Grandma')).toHaveCount(3);
  for (const name of CAGE)
    await expect(page.getByRole('button', { name: new RegExp(`^Photo ${name.replace('.', '\\.')}`) })).toHaveCount(0);

  // Hidden: not on People, not found by search; back with Show again.
  await page.getByRole('button', { name: 'Hide this person' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Grandma is hidden: no longer on People or found by search.' })).toBeVisible();
  await page.goto('/people');
  await expect(people.getByRole('listitem')).toHaveCount(2);
  await expect(people.getByRole('link', { name: /^Open Grandma/ })).toHaveCount(0);
  await page.getByRole('link', { name: 'Hidden people (1)' }).click();
  const hidden = page.getByRole('list', { name: 'Hidden people' });
  await expect(hidden.getByRole('link', { name: 'Open Grandma (3 photos)' })).toBeVisible();
  await captureScreen(page, testInfo, 'hidden-people');
  await page.goto('/gallery?q=grandma');
  await expect(page.getByRole('heading', { name: 'Nothing found for “grandma”' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Photo franck-/ })).toHaveCount(0);
  await page.goto('/people/hidden');
  await hidden.getByRole('button', { name: 'Show Grandma again' }).click();
  await expect(page.getByRole('status')).toContainText('Grandma is back on People.');
  await expect(page.getByText('Nobody is hidden.')).toBeVisible();
  await page.goto('/people');
  await expect(people.getByRole('link', { name: 'Open Grandma (3 photos)' })).toBeVisible();
  await expect(page.getByRole('link', { name: /^Hidden people/ })).toHaveCount(0);
});
