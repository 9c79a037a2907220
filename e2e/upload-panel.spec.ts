import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { CDPSession, Locator, Page } from '@playwright/test';
import sharp from 'sharp';
import { expect, mainNav, signIn, test } from './support/fixtures.ts';
import type { Account, Hearth } from './support/hearth.ts';
import { captureScreen } from './support/screens.ts';
import { scratchFolder } from './support/scratch.ts';

interface NodeItem {
  id: string;
  name: string;
  type: string;
}

/**
 * Photos as a phone has them: real JPEGs of noise (each its own content, about 40 KB, so a
 * slowed network keeps them sending long enough to look at), on disk with a fixed date.
 */
async function cameraRoll(count: number, prefix = 'IMG_'): Promise<string[]> {
  const dir = await scratchFolder('roll');
  const paths: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const file = path.join(dir, `${prefix}${String(2001 + i)}.jpg`);
    const [width, height] = [240, 180];
    await fs.writeFile(
      file,
      await sharp(crypto.randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
        .jpeg({ quality: 85 })
        .toBuffer(),
    );
    await fs.utimes(file, new Date('2024-07-01T10:00:00Z'), new Date('2024-07-01T10:00:00Z'));
    paths.push(file);
  }
  return paths;
}

/** Slows (or, with -1, frees) this page's uploads. */
async function throttle(page: Page, bytesPerSecond: number, cdp?: CDPSession): Promise<CDPSession> {
  const session = cdp ?? (await page.context().newCDPSession(page));
  await session.send('Network.enable');
  await session.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
  return session;
}

async function filesIn(hearth: Hearth, who: Account, parent = 'root'): Promise<NodeItem[]> {
  const items = (await hearth.api.ok('GET', `/nodes?parent_id=${parent}&sort=name&limit=1000`, who.access)).items as NodeItem[];
  return items.filter((n) => n.type === 'file');
}

async function upload(page: Page, files: string[] | { name: string; mimeType: string; buffer: Buffer }[]): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await (await chooser).setFiles(files);
}

const panelOf = (page: Page) => page.getByRole('region', { name: 'Uploads' });
/** The panel's one line: a button named by what it says, open or not. */
const lineOf = (page: Page) =>
  panelOf(page)
    .getByRole('button', { expanded: false })
    .or(panelOf(page).getByRole('button', { expanded: true }));

/** Every Screen Wake Lock the page takes, to see whether it still holds one (the real API, watched). */
async function watchScreenLocks(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const taken: WakeLockSentinel[] = [];
    (window as unknown as { screenLocks: WakeLockSentinel[] }).screenLocks = taken;
    if (typeof WakeLock === 'undefined') return;
    const request = WakeLock.prototype.request;
    WakeLock.prototype.request = async function (this: WakeLock, type?: 'screen') {
      const sentinel = await request.call(this, type);
      taken.push(sentinel);
      return sentinel;
    };
  });
}

const screenLocksHeld = (page: Page) =>
  page.evaluate(() => (window as unknown as { screenLocks: WakeLockSentinel[] }).screenLocks.filter((s) => !s.released).length);

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  expect(found).not.toBeNull();
  return found!;
}

test.describe('the upload panel, out of the way @lan', () => {
  test('while 24 photos send, the panel is one line at the bottom, above the phone’s bar, that opens into the list and closes again; the screen stays on where the browser allows', async ({
    page,
    member,
    hearth,
    world,
  }, testInfo) => {
    test.setTimeout(180_000);
    await watchScreenLocks(page);
    const roll = await cameraRoll(24);
    await signIn(page, member);
    const cdp = await throttle(page, 24 * 1024);
    await upload(page, roll);

    const line = lineOf(page);
    await expect(line).toHaveAccessibleName(/^Uploading 24 photos · \d+ of 24/);
    await expect(line).toHaveAttribute('aria-expanded', 'false');
    await expect(panelOf(page).getByRole('progressbar', { name: 'All uploads' })).toBeVisible();
    await expect(panelOf(page).getByRole('list', { name: 'Each upload' })).toBeHidden();
    // A long batch asks to keep Hearth open; where the browser has a wake lock, it also keeps the screen on.
    await expect(panelOf(page).getByText('Keep Hearth open until they are sent.')).toBeVisible();
    if (world === 'secure') await expect.poll(() => screenLocksHeld(page)).toBe(1);
    else expect(await page.evaluate(() => 'wakeLock' in navigator)).toBe(false);
    // The time left comes once there is a speed to tell it by.
    await expect(line).toHaveAccessibleName(/ · (\d+ min|less than a minute) left$/, { timeout: 15_000 });

    // One line: well under a sixth of a phone's screen, at the bottom, never over the bottom bar.
    const viewport = page.viewportSize()!;
    const panel = await box(panelOf(page));
    expect(panel.height / viewport.height).toBeLessThan(0.15);
    expect(panel.y + panel.height).toBeGreaterThan(viewport.height * 0.8);
    if (testInfo.project.name.startsWith('phone')) {
      const bar = await box(mainNav(page));
      expect(panel.y + panel.height).toBeLessThanOrEqual(bar.y);
    }
    if (world === 'secure') await captureScreen(page, testInfo, 'upload-panel-line');

    // Open: the list of files, with how far each one is.
    await page.getByRole('button', { name: /^Uploading 24 photos/ }).click();
    await expect(line).toHaveAttribute('aria-expanded', 'true');
    const list = panelOf(page).getByRole('list', { name: 'Each upload' });
    await expect(list.getByRole('listitem')).toHaveCount(24);
    await expect(list.getByRole('listitem').filter({ hasText: 'IMG_2024.jpg' })).toBeVisible();
    if (world === 'secure') await captureScreen(page, testInfo, 'upload-panel-open');
    await page.getByRole('button', { name: /^Uploading 24 photos/ }).click();
    await expect(line).toHaveAttribute('aria-expanded', 'false');
    await expect(list).toBeHidden();

    await throttle(page, -1, cdp);
    await expect(line).toHaveAccessibleName('24 photos uploaded', { timeout: 60_000 });
    await expect(panelOf(page).getByText('Keep Hearth open until they are sent.')).toHaveCount(0);
    if (world === 'secure') await expect.poll(() => screenLocksHeld(page)).toBe(0);
    expect((await filesIn(hearth, member)).map((n) => n.name)).toEqual(roll.map((p) => path.basename(p)));

    // The page scrolls its last file out from under the panel.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const rows = page.getByRole('list', { name: 'Files and folders' }).getByRole('listitem');
    await expect(rows).toHaveCount(24);
    await expect(async () => {
      const last = await box(rows.last());
      const over = await box(panelOf(page));
      expect(last.y + last.height).toBeLessThanOrEqual(over.y);
    }).toPass({ timeout: 5_000 });

    // Finished, it can be closed.
    await panelOf(page).getByRole('button', { name: 'Close uploads' }).click();
    await expect(panelOf(page)).toHaveCount(0);
  });

  test('offline mid-send the line says "Waiting for the connection" with no speed or time left, and back online every photo arrives', async ({
    page,
    context,
    member,
    hearth,
    world,
  }, testInfo) => {
    test.setTimeout(180_000);
    const roll = await cameraRoll(20);
    await signIn(page, member);
    const cdp = await throttle(page, 32 * 1024);
    await upload(page, roll);
    const line = lineOf(page);
    await expect(line).toHaveAccessibleName(/^Uploading 20 photos · \d+ of 20 · .* left$/, { timeout: 20_000 });

    await context.setOffline(true);
    await expect(line).toHaveAccessibleName(/^Waiting for the connection · \d+ of 20$/);
    // Nothing that looks like a speed or a time, then or a few seconds later.
    await page.waitForTimeout(3_000);
    await expect(line).toHaveAccessibleName(/^Waiting for the connection · \d+ of 20$/);
    await expect(panelOf(page)).not.toContainText(/\/s|left/);
    if (world === 'secure') await captureScreen(page, testInfo, 'upload-panel-offline');
    await line.click();
    await expect(panelOf(page).getByText('Waiting for the connection').first()).toBeVisible();

    await context.setOffline(false);
    await throttle(page, -1, cdp);
    await expect(line).toHaveAccessibleName('20 photos uploaded', { timeout: 60_000 });
    const arrived = await filesIn(hearth, member);
    expect(arrived.map((n) => n.name)).toEqual(roll.map((p) => path.basename(p)));
    for (const [i, node] of arrived.entries()) {
      const res = await fetch(`${hearth.api.base}/nodes/${node.id}/download`, { headers: { authorization: `Bearer ${member.access}` } });
      const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
      expect(sha(Buffer.from(await res.arrayBuffer())), node.name).toBe(sha(await fs.readFile(roll[i]!)));
    }
  });
});

test('a file the server refuses for good is told once on the line and in the list with its reason, never offered to try again, and not again on the next page load', async ({
  page,
  member,
  hearth,
}) => {
  await signIn(page, member);
  // A text-direction mark can make "Holiday‮gpj.exe" look like a photo: the server refuses the name.
  const refused = 'Holiday\u202Egpj.exe';
  await upload(page, [
    {
      name: 'Beach.jpg',
      mimeType: 'image/jpeg',
      buffer: await sharp({ create: { width: 8, height: 8, channels: 3, background: 'blue' } })
        .jpeg()
        .toBuffer(),
    },
    { name: 'Notes.txt', mimeType: 'text/plain', buffer: Buffer.from('shopping list') },
    { name: refused, mimeType: 'application/octet-stream', buffer: Buffer.from('not really a photo') },
  ]);
  const line = lineOf(page);
  await expect(line).toHaveAccessibleName('2 files uploaded · 1 not uploaded', { timeout: 30_000 });
  await line.click();
  const row = panelOf(page).getByRole('listitem').filter({ hasText: refused });
  await expect(row).toContainText("That name can't be used. Avoid slashes, invisible characters and text-direction marks.");
  await expect(row.getByRole('button', { name: `Resume ${refused}` })).toHaveCount(0);
  await expect(panelOf(page).getByRole('button', { name: /Resume|Try again/ })).toHaveCount(0);
  // It is first in the list: what went wrong is not hidden below what went well.
  await expect(panelOf(page).getByRole('listitem').first()).toContainText(refused);
  expect((await filesIn(hearth, member)).map((n) => n.name)).toEqual(['Beach.jpg', 'Notes.txt']);

  // Closed with the tab before it was dismissed: the next page load tells it once more…
  await page.reload();
  const told = page.getByRole('status').filter({ hasText: 'was not uploaded' });
  await expect(told).toContainText('That name can');
  await expect(page.getByRole('button', { name: 'Choose files again' })).toHaveCount(0);
  // …and it does not follow the person from page to page, load after load.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'My files' })).toBeVisible();
  await expect(page.getByText('was not uploaded')).toHaveCount(0);

  // Dismissed in the panel, it is gone there and then.
  await upload(page, [{ name: refused, mimeType: 'application/octet-stream', buffer: Buffer.from('again') }]);
  await expect(line).toHaveAccessibleName('1 file not uploaded', { timeout: 30_000 });
  await line.click();
  await panelOf(page)
    .getByRole('button', { name: `Dismiss ${refused}` })
    .click();
  await expect(panelOf(page)).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'My files' })).toBeVisible();
  await expect(page.getByText('was not uploaded')).toHaveCount(0);
});

test('a backup cut by a closed tab: Photos says how many photos it still had to send, and Back up this phone sends just those', async ({
  page,
  member,
  hearth,
}, testInfo) => {
  test.setTimeout(180_000);
  const roll = await cameraRoll(8, 'PXL_');
  await signIn(page, member);
  await mainNav(page).getByRole('link', { name: 'Photos' }).click();
  await expect(page.getByRole('heading', { name: 'Photos', level: 1 })).toBeVisible();
  const cdp = await throttle(page, 16 * 1024);
  const chooser = page.waitForEvent('filechooser');
  // On a computer the backup is under More (its main button is Upload).
  if (testInfo.project.name.startsWith('phone')) await page.getByRole('button', { name: 'Back up this phone' }).click();
  else {
    await page.getByRole('button', { name: 'More', exact: true }).click();
    await page.getByRole('button', { name: 'Back up photos' }).click();
  }
  await (await chooser).setFiles(roll);
  const status = page.getByRole('region', { name: 'Backing up this phone' });
  await expect(status.getByRole('status')).toHaveText('8 to send');
  // The backup's status asks to keep Hearth open; the panel does not say it a second time.
  await expect(page.getByText(/Keep Hearth open/)).toHaveCount(1);

  const deviceFolder = async () => {
    const top = (await hearth.api.ok('GET', '/nodes?parent_id=root', member.access)).items.find((n: NodeItem) => n.name === 'Phone backup');
    if (!top) return null;
    return ((await hearth.api.ok('GET', `/nodes?parent_id=${top.id}`, member.access)).items[0] as NodeItem | undefined) ?? null;
  };
  const backedUp = async () => {
    const folder = await deviceFolder();
    return folder ? (await filesIn(hearth, member, folder.id)).length : 0;
  };
  await expect.poll(backedUp, { timeout: 60_000 }).toBeGreaterThanOrEqual(2);

  // The tab is closed mid-way (a reload is the same to the page).
  await page.reload();
  await throttle(page, -1, cdp);
  const here = await backedUp();
  expect(here).toBeLessThan(8);
  const card = page.getByRole('region', { name: /^Your last backup stopped with \d+ photos? still to send$/ });
  await expect(card).toBeVisible();
  const still = Number(/with (\d+)/.exec((await card.getByRole('heading').textContent())!)![1]);
  // A photo whose last bytes reached the server just as the tab closed is here, though the
  // tab had no time to note it: it may be counted, never sent twice (the run below skips it).
  expect(still).toBeGreaterThanOrEqual(8 - here);
  expect(still).toBeLessThanOrEqual(8 - here + 1);
  // Not a list of names to choose again: the backup is simply run again.
  await expect(page.getByRole('button', { name: 'Choose files again' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Back up this phone' })).toHaveCount(1);
  await captureScreen(page, testInfo, 'upload-panel-backup-stopped');

  // Other pages say it too, with the way back to Photos.
  await mainNav(page).getByRole('link', { name: 'My files' }).click();
  const reminder = page.getByRole('status').filter({ hasText: 'Your last backup stopped' });
  await expect(reminder).toBeVisible();
  await reminder.getByRole('link', { name: 'Open Photos' }).click();
  await expect(page.getByRole('heading', { name: 'Photos', level: 1 })).toBeVisible();

  const again = page.waitForEvent('filechooser');
  await card.getByRole('button', { name: 'Back up this phone' }).click();
  await (await again).setFiles(roll);
  // Small enough to be sent before the test looks: "to send", then "sent" once they are.
  await expect(status.getByRole('status')).toHaveText(new RegExp(`^${here} already here, ${8 - here} (to send|sent)$`));
  await expect.poll(backedUp, { timeout: 60_000 }).toBe(8);
  await expect(status.getByRole('status')).toHaveText(`${here} already here, ${8 - here} sent`);
  await expect(card).toHaveCount(0);
  const folder = await deviceFolder();
  expect((await filesIn(hearth, member, folder!.id)).map((n) => n.name)).toEqual(roll.map((p) => path.basename(p)));
  await page.reload();
  await expect(page.getByText('Your last backup stopped')).toHaveCount(0);
});
