import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { expect, mainNav, signIn, test } from './support/fixtures.ts';
import { chooseForBackup, thisMonth } from './support/photo-backup.ts';
import type { Account, Hearth } from './support/hearth.ts';
import { photo, processed, upload } from './support/media.ts';
import { scratchFolder } from './support/scratch.ts';

/* Issue 32, items 3 and 4: a timeline that fills while it is open stays calm and usable. */

async function openPhotos(page: Page): Promise<void> {
  await mainNav(page).getByRole('link', { name: 'Photos' }).click();
  await expect(page.getByRole('heading', { name: 'Photos', level: 1 })).toBeVisible();
}

/** Every month heading the page ever shows, recorded as it appears (even for a moment). */
async function recordMonthHeadings(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const seen = new Set<string>();
    (window as unknown as { seenMonths: Set<string> }).seenMonths = seen;
    const look = () => document.querySelectorAll('.month-header h2').forEach((h) => seen.add(h.firstChild?.textContent ?? ''));
    new MutationObserver(look).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  return () => page.evaluate(() => [...(window as unknown as { seenMonths: Set<string> }).seenMonths]);
}

/** A camera roll from 2019 on disk: noisy (slow to process) JPEGs whose file dates are today. */
async function rollFrom2019(count: number): Promise<string[]> {
  const dir = await scratchFolder('roll-2019');
  const files: string[] = [];
  for (let i = 0; i < count; i++) {
    const [width, height] = [1600, 1200];
    const file = path.join(dir, `IMG_2019_${i + 1}.jpg`);
    const jpeg = await sharp(crypto.randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
      .jpeg({ quality: 85 })
      .withExif({ IFD0: { Make: 'Hearth e2e' }, IFD2: { DateTimeOriginal: `2019:0${1 + (i % 3)}:1${i % 9} 12:00:00` } })
      .toBuffer();
    await fs.writeFile(file, jpeg);
    files.push(file);
  }
  return files;
}

test('photos from 2019 backed up while Photos is open appear under their months, never under this month', async ({
  page,
  member,
  hearth,
}) => {
  test.setTimeout(120_000);
  await signIn(page, member);
  await openPhotos(page);
  await expect(page.getByRole('heading', { name: 'No photos yet' })).toBeVisible();
  const seen = await recordMonthHeadings(page);

  await chooseForBackup(page, await rollFrom2019(8));
  await expect(page.getByText('8 photos')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('heading', { name: /March 2019/ })).toBeVisible();
  await expect
    .poll(
      async () =>
        (await hearth.api.ok('GET', '/nodes?filter=gallery&limit=100', member.access)).items.every(
          (n: { has_thumbnail: boolean }) => n.has_thumbnail,
        ),
      { timeout: 60_000 },
    )
    .toBe(true);
  await expect(page.locator('.tile img')).toHaveCount(8);
  const months = await seen();
  expect(months.some((m) => m.startsWith('January 2019'))).toBe(true);
  expect(
    months.filter((m) => m.startsWith(thisMonth())),
    `headings ever shown: ${months.join(' | ')}`,
  ).toEqual([]);
});

/** The pinned month's words and the month of the first row seen under it. */
function pinnedAndFirst(page: Page): Promise<{ pinned: string | null; first: string | null }> {
  return page.evaluate(() => {
    const sticky = document.querySelector<HTMLElement>('.month-sticky');
    const edge = sticky ? sticky.getBoundingClientRect().bottom : 0;
    const rows = [...document.querySelectorAll<HTMLElement>('.timeline-row')]
      .map((row) => ({ box: row.getBoundingClientRect(), month: row.dataset.month ?? null }))
      .filter(({ box }) => box.bottom > edge + 1 && box.top < window.innerHeight)
      .sort((a, b) => a.box.top - b.box.top);
    const month = rows[0]?.month;
    const name = month
      ? new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
          Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)) - 1, 15),
        )
      : null;
    return { pinned: sticky?.textContent ?? null, first: name };
  });
}

async function uploadMonths(hearth: Hearth, who: Account, months: [number, number, number][]): Promise<void> {
  const ids: string[] = [];
  for (const [year, month, count] of months) {
    for (let i = 0; i < count; i++) {
      const when = `${year}:${String(month).padStart(2, '0')}:${String(1 + i).padStart(2, '0')} 10:00:00`;
      ids.push(await upload(hearth.api, who, await photo(when), `${year}-${month}-${i + 1}.jpg`));
    }
  }
  await processed(hearth.api, who, ids);
}

test('a timeline that was empty gets a working scrubber as photos arrive: year marks, a thumb that moves, and the pinned month is the one on screen', async ({
  page,
  member,
  hearth,
}, testInfo) => {
  test.setTimeout(150_000);
  await signIn(page, member);
  await openPhotos(page);
  await expect(page.getByRole('heading', { name: 'No photos yet' })).toBeVisible();

  // One month first (no scrubber yet), then years of photos while the page stays open.
  await uploadMonths(hearth, member, [[2024, 5, 3]]);
  await expect(page.getByRole('heading', { name: /May 2024/ })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('slider', { name: 'Jump to a month' })).toHaveCount(0);
  await uploadMonths(hearth, member, [
    [2023, 8, 12],
    [2019, 7, 12],
    [2015, 4, 12],
    [2011, 2, 12],
  ]);
  await expect(page.getByText('51 photos')).toBeVisible({ timeout: 30_000 });

  const scrubber = page.getByRole('slider', { name: 'Jump to a month' });
  await expect(scrubber).toBeVisible();
  await expect.poll(() => page.locator('.scrubber-year').count(), { message: 'year marks along the scrubber' }).toBeGreaterThanOrEqual(2);

  const thumb = page.locator('.scrubber-thumb');
  const box = (await scrubber.boundingBox())!;
  const phone = testInfo.project.name.startsWith('phone');
  // Dragged to several places, then to the end: the page scrolls, the thumb follows, and the
  // month pinned at the top is always the month of the first row under it.
  for (const fraction of [0.35, 0.6, 0.8, 0.47, 1]) {
    const handle = (await thumb.boundingBox())!;
    const start = phone
      ? { x: handle.x + handle.width / 2, y: handle.y + handle.height / 2 }
      : { x: box.x + box.width / 2, y: handle.y + handle.height / 2 };
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    await page.mouse.move(start.x, box.y + box.height * fraction - (fraction === 1 ? 2 : 0), { steps: 5 });
    await page.mouse.up();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const { pinned, first } = await pinnedAndFirst(page);
    if (pinned !== null) expect(pinned, `after a scrub to ${fraction}`).toBe(first);
  }
  const moved = (await thumb.boundingBox())!;
  expect(moved.y, 'the thumb is at the bottom of the track').toBeGreaterThan(box.y + box.height / 2);
  await expect(page.getByRole('heading', { name: /February 2011/ })).toBeInViewport();
});
