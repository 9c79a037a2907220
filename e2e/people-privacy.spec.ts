import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page, TestInfo } from '@playwright/test';
import { expect, signIn, test } from './support/fixtures.ts';
import { uniqueName, uploadAs, type Account } from './support/hearth.ts';
import { processed, upload } from './support/media.ts';
import { captureScreen } from './support/screens.ts';

const FACES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../server/test/fixtures/faces');

// Face finding is off in the other specs' servers (e2e/support/serve.ts): this one looks.
test.use({ serverConfig: { findFaces: true } });

const tile = (page: Page, name: string) => page.getByRole('button', { name: new RegExp(`^Photo ${name.replace('.', '\\.')}`) });

/** Another person's own device, at this project's size, signed in; every WebSocket frame it receives is kept. */
async function device(browser: Browser, baseURL: string | undefined, testInfo: TestInfo, who: Account) {
  const { viewport, deviceScaleFactor, isMobile, hasTouch, userAgent } = testInfo.project.use;
  const context = await browser.newContext({ baseURL, viewport, deviceScaleFactor, isMobile, hasTouch, userAgent });
  const page = await context.newPage();
  const frames: string[] = [];
  page.on('websocket', (socket) => socket.on('framereceived', (frame) => frames.push(String(frame.payload))));
  const live = page.waitForEvent('websocket');
  await signIn(page, who);
  await live;
  return { context, page, frames };
}

test('Dad names Grandma in his People; Mum, his partner, finds her in his photos; Kid, shown none of them, finds nothing and hears nothing', async ({
  page,
  hearth,
  owner,
  browser,
  baseURL,
}, testInfo) => {
  test.setTimeout(180_000);
  const dad = await hearth.api.member(owner, uniqueName('dad'));
  const mum = await hearth.api.member(owner, uniqueName('mum'));
  const kid = await hearth.api.member(owner, uniqueName('kid'));
  await hearth.api.ok('POST', '/partner-shares', dad.access, { user_id: mum.id });

  // Kid has Hearth open on her own device the whole time, listening.
  const kids = await device(browser, baseURL, testInfo, kid);
  await kids.page.goto('/gallery');

  // Dad's People is open before his photos come: it fills as faces are found, without a reload.
  const dadsFrames: string[] = [];
  page.on('websocket', (socket) => socket.on('framereceived', (frame) => dadsFrames.push(String(frame.payload))));
  await signIn(page, dad);
  await page.goto('/people');
  await expect(page.getByText('When your photos have faces in them, the people in them show here.')).toBeVisible();
  let reloaded = false;
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) reloaded = true;
  });
  const ids: Record<string, string> = {};
  for (const name of ['franck-01829.jpg', 'franck-02683.jpg', 'cage-1.jpg']) {
    ids[name] = await upload(hearth.api, dad, await fs.readFile(path.join(FACES, name)), name);
  }
  await processed(hearth.api, dad, Object.values(ids));
  const people = page.getByRole('list', { name: 'People' });
  await expect(people.getByRole('listitem')).toHaveCount(2, { timeout: 120_000 });
  await expect(page.getByText(/Looking for faces/)).toHaveCount(0, { timeout: 30_000 });
  expect(reloaded).toBe(false);
  expect(dadsFrames.some((f) => f.includes('"people.changed"'))).toBe(true);

  // Mum sees his photos through partner sharing, and is already searching "grandma": nothing yet.
  const mums = await device(browser, baseURL, testInfo, mum);
  await mums.page.goto('/gallery?q=grandma');
  await expect(mums.page.getByRole('heading', { name: 'Nothing found for “grandma”' })).toBeVisible();

  await people.getByRole('button', { name: 'Name this person (2 photos)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Name this person' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Grandma');
  await dialog.getByRole('button', { name: 'Save name' }).click();
  await expect(dialog).toBeHidden();
  await expect(people.getByRole('listitem').first()).toContainText('Grandma');
  await captureScreen(page, testInfo, 'people-privacy-dad');

  // Her search finds the two he named as soon as he names her, without searching again.
  for (const name of ['franck-01829.jpg', 'franck-02683.jpg']) await expect(tile(mums.page, name)).toBeVisible();
  await expect(tile(mums.page, 'cage-1.jpg')).toHaveCount(0);
  await expect(mums.page.getByText('2 photos found for “grandma”')).toBeVisible();
  await captureScreen(mums.page, testInfo, 'people-privacy-mum');
  expect(mums.frames.some((f) => f.includes('"people.changed"'))).toBe(false);
  // The photo's details say Grandma is in it, by Dad's name; his People is his own, so no link to it.
  await tile(mums.page, 'franck-01829.jpg').click();
  const viewer = mums.page.getByRole('dialog', { name: 'Photo viewer' });
  await viewer.getByRole('button', { name: 'Details' }).click();
  const inPhoto = viewer.getByRole('list', { name: 'People in this photo' });
  await expect(inPhoto.getByRole('listitem')).toHaveText(['Grandma']);
  await expect(inPhoto.getByRole('link')).toHaveCount(0);
  const faces = await hearth.api.ok('GET', `/photos/${ids['franck-01829.jpg']}/faces`, mum.access);
  expect(faces.items.map((f: { name: string }) => f.name)).toEqual(['Grandma']);
  expect((await hearth.api.ok('GET', `/photos/${ids['cage-1.jpg']}/faces`, mum.access)).items).toEqual([]);

  // Kid searches "grandma": nothing, and nothing of his photos ever reached her screen.
  await kids.page.goto('/gallery?q=grandma');
  await expect(kids.page.getByRole('heading', { name: 'Nothing found for “grandma”' })).toBeVisible();
  await captureScreen(kids.page, testInfo, 'people-privacy-kid');
  for (const id of Object.values(ids)) {
    expect((await hearth.api.call('GET', `/photos/${id}/faces`, kid.access)).status).toBe(404);
  }
  // Her own file's event proves her socket was listening all along; then nothing of Dad's is among what came.
  await uploadAs(hearth.api, kid, 'kid-note.txt', Buffer.from('homework'));
  await expect.poll(() => kids.frames.some((f) => f.includes('kid-note.txt')), { timeout: 10_000 }).toBe(true);
  for (const frame of kids.frames) {
    expect(frame).not.toContain('photo.faces');
    expect(frame).not.toContain('people.changed');
    expect(frame).not.toMatch(/grandma/i);
    for (const id of Object.values(ids)) expect(frame).not.toContain(id);
  }
  await mums.context.close();
  await kids.context.close();
});
