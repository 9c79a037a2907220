import sharp from 'sharp';
import { uploadAs } from './support/hearth.ts';
import type { Page } from '@playwright/test';
import { expect, signIn, test } from './support/fixtures.ts';

test('a photo uploaded from another device appears in open views without a reload: My files and the gallery, thumbnail included', async ({
  browser,
  page,
  member,
  hearth,
  baseURL,
}) => {
  await signIn(page, member);
  const other = await browser.newContext({ baseURL });
  const gallery = await other.newPage();
  await signIn(gallery, member);
  await gallery.goto('/gallery');
  await expect(gallery.getByRole('heading', { name: 'No photos yet' })).toBeVisible();
  await expect(page.getByText('Nothing here yet.')).toBeVisible();

  const picture = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#aa4422' } })
    .jpeg()
    .withExif({ IFD0: { Make: 'Hearth test' }, IFD2: { DateTimeOriginal: '2022:05:01 12:00:00' } })
    .toBuffer();
  await uploadAs(hearth.api, member, 'from-grandpas-phone.jpg', picture);

  await expect(page.getByRole('list', { name: 'Files and folders' }).getByText('from-grandpas-phone.jpg')).toBeVisible();
  await expect(page.locator('img.node-thumb')).toHaveCount(1, { timeout: 30_000 });
  await expect(gallery.getByRole('heading', { name: /May 2022/ })).toBeVisible();
  await expect(gallery.locator('.tile img')).toHaveCount(1, { timeout: 30_000 });
  await other.close();
});

/**
 * Holds the app's event channel until the test lets it through, as a slow phone opening it
 * after its first views answered. `told` resolves once the socket's first message, the event
 * count it starts from, has reached the page.
 */
async function holdEventChannel(page: Page): Promise<{ letThrough: () => void; told: Promise<void> }> {
  let letThrough!: () => void;
  const through = new Promise<void>((resolve) => (letThrough = resolve));
  let tell!: () => void;
  const told = new Promise<void>((resolve) => (tell = resolve));
  await page.routeWebSocket(/\/api\/v1\/ws/, async (socket) => {
    await through;
    const server = socket.connectToServer();
    server.onMessage((message) => {
      socket.send(message);
      if (typeof message === 'string' && (JSON.parse(message) as { type: string }).type === 'socket.opened') tell();
    });
  });
  return { letThrough, told };
}

test("a folder made on Mum's other device while this one is still opening its live channel shows in My files once the channel is up", async ({
  page,
  member,
  hearth,
}) => {
  const { letThrough } = await holdEventChannel(page);
  await signIn(page, member);
  const list = page.getByRole('list', { name: 'Files and folders' });
  await expect(page.getByText('Nothing here yet.')).toBeVisible();
  // Told while nothing listens for this phone yet: only the count the channel opens with says so.
  await hearth.api.ok('POST', '/nodes/folder', member.access, { name: 'Made meanwhile' });
  letThrough();
  await expect(list.getByText('Made meanwhile')).toBeVisible();
});

test('a live channel that opens with nothing missed asks the server nothing again', async ({ page, member, hearth }) => {
  const { letThrough, told } = await holdEventChannel(page);
  await signIn(page, member);
  await expect(page.getByText('Nothing here yet.')).toBeVisible();
  const asked: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/v1/') && ['fetch', 'xhr'].includes(request.resourceType())) asked.push(request.url());
  });
  letThrough();
  await told;
  // A page that believed it missed something asks at once (the next turn of its event loop).
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 500)));
  expect(asked).toEqual([]);
  // The channel is up and carries what comes next.
  await hearth.api.ok('POST', '/nodes/folder', member.access, { name: 'Made after' });
  await expect(page.getByRole('list', { name: 'Files and folders' }).getByText('Made after')).toBeVisible();
});

test('an event the live channel lost on the way (a phone that fell behind) is made up when the next one comes', async ({
  page,
  member,
  hearth,
}) => {
  let opened!: () => void;
  const up = new Promise<void>((resolve) => (opened = resolve));
  let dropped!: () => void;
  const lost = new Promise<void>((resolve) => (dropped = resolve));
  // As the server drops the oldest messages of a socket that stopped reading: this one never reaches the page.
  await page.routeWebSocket(/\/api\/v1\/ws/, (socket) => {
    const server = socket.connectToServer();
    server.onMessage((message) => {
      const text = String(message);
      if (text.includes('"node.created"') && text.includes('Lost on the way')) return dropped();
      socket.send(message);
      if (text.includes('"socket.opened"')) opened();
    });
  });
  await signIn(page, member);
  await expect(page.getByText('Nothing here yet.')).toBeVisible();
  await up;
  await hearth.api.ok('POST', '/nodes/folder', member.access, { name: 'Lost on the way' });
  await lost;
  // The next event, one My files does not follow, counts two past the last one heard.
  await hearth.api.ok('POST', '/notifications/read', member.access, { all: true });
  await expect(page.getByRole('list', { name: 'Files and folders' }).getByText('Lost on the way')).toBeVisible();
});
