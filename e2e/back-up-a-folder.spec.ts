import fs from 'node:fs/promises';
import path from 'node:path';
import { expect, mainNav, signIn, test } from './support/fixtures.ts';
import { photo } from './support/media.ts';
import { scratchFolder } from './support/scratch.ts';

/*
 * Issue 32, item 5, on a computer: Back up a folder keeps the folder's own name. Only the desktop
 * project runs this file (a phone's picker has no folders: see playwright.config.ts).
 */

test('on a computer, Back up a folder keeps the folder’s own name in Hearth', async ({ page, member, hearth }) => {
  const dir = path.join(await scratchFolder('folder'), 'Holiday 2019');
  await fs.mkdir(dir);
  for (const name of ['beach.jpg', 'pier.jpg'])
    await fs.writeFile(path.join(dir, name), await photo('2019:08:0' + name.length + ' 10:00:00'));
  await signIn(page, member);
  await mainNav(page).getByRole('link', { name: 'Photos' }).click();
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'More', exact: true }).click();
  await page.getByRole('button', { name: 'Back up a folder' }).click();
  await (await chooser).setFiles(dir);
  const status = page.getByRole('region', { name: 'Backing up this phone' });
  await expect(status).toContainText('Into Holiday 2019.');
  await expect
    .poll(async () => {
      const top = (await hearth.api.ok('GET', '/nodes?parent_id=root', member.access)).items as { id: string; name: string }[];
      const folder = top.find((n) => n.name === 'Holiday 2019');
      if (!folder) return [];
      return ((await hearth.api.ok('GET', `/nodes?parent_id=${folder.id}&sort=name`, member.access)).items as { name: string }[]).map(
        (n) => n.name,
      );
    })
    .toEqual(['beach.jpg', 'pier.jpg']);
});
