import crypto from 'node:crypto';
import sharp from 'sharp';
import { expect, signIn, test } from './support/fixtures.ts';
import { scratchFolder } from './support/scratch.ts';

/** Small real JPEGs, each a different colour, so each has its own content and thumbnail. */
async function photos(count: number): Promise<{ name: string; mimeType: string; buffer: Buffer }[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => ({
      name: `photo-${String(i + 1).padStart(2, '0')}.jpg`,
      mimeType: 'image/jpeg',
      buffer: await sharp({
        create: { width: 64 + i, height: 48, channels: 3, background: { r: (i * 37) % 255, g: (i * 91) % 255, b: 120 } },
      })
        .jpeg()
        .toBuffer(),
    })),
  );
}

test.describe('upload @lan', () => {
  test('20 photos chosen from the phone upload with progress, land in My files byte-identical, and their thumbnails appear', async ({
    page,
    member,
    hearth,
  }) => {
    test.setTimeout(120_000);
    await signIn(page, member);
    const files = await photos(20);
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload' }).click();
    await (await chooser).setFiles(files);

    const panel = page.getByRole('region', { name: 'Uploads' });
    await expect(panel.getByRole('progressbar', { name: 'All uploads' })).toBeVisible();
    await expect(panel.getByText('20 photos uploaded')).toBeVisible({ timeout: 60_000 });

    const list = page.getByRole('list', { name: 'Files and folders' });
    await expect(list.getByRole('listitem')).toHaveCount(20);
    // Thumbnails are made in the background and shown as they arrive (a reload picks up the late ones).
    await expect(async () => {
      await page.reload();
      await expect(list.locator('img.node-thumb')).toHaveCount(20, { timeout: 3_000 });
    }).toPass({ timeout: 60_000 });

    const listed = await hearth.api.ok('GET', '/nodes?parent_id=root&sort=name', member.access);
    expect(listed.items.map((n: { name: string }) => n.name)).toEqual(files.map((f) => f.name));
    for (const [i, node] of listed.items.entries()) {
      const res = await fetch(`${hearth.api.base}/nodes/${node.id}/download`, { headers: { authorization: `Bearer ${member.access}` } });
      const got = Buffer.from(await res.arrayBuffer());
      expect(crypto.createHash('sha256').update(got).digest('hex')).toBe(
        crypto.createHash('sha256').update(files[i]!.buffer).digest('hex'),
      );
    }
  });
});

/** Slows this page's uploads, so a test can act while one is under way. */
async function throttleUploads(page: import('@playwright/test').Page, bytesPerSecond: number) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
  return cdp;
}

async function percentOf(page: import('@playwright/test').Page, name: string): Promise<number> {
  const panel = page.getByRole('region', { name: 'Uploads' });
  // The panel is one line until opened; each file's own progress is in its list.
  if (!(await panel.getByRole('list', { name: 'Each upload' }).isVisible())) await panel.getByRole('button', { expanded: false }).click();
  const text = (await panel.getByRole('listitem').filter({ hasText: name }).locator('.muted').textContent()) ?? '';
  const match = /(\d+)%/.exec(text);
  return match ? Number(match[1]) : 0;
}

async function tempFile(name: string, content: Buffer): Promise<string> {
  const fs = await import('node:fs/promises');
  const path = await import('node:path');
  const dir = await scratchFolder('file');
  const file = path.join(dir, name);
  await fs.writeFile(file, content);
  return file;
}

const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

async function contentOf(hearth: { api: { base: string } }, token: string, id: string): Promise<Buffer> {
  const res = await fetch(`${hearth.api.base}/nodes/${id}/download`, { headers: { authorization: `Bearer ${token}` } });
  return Buffer.from(await res.arrayBuffer());
}

test.describe('upload resilience @lan', () => {
  test('an upload cut by going offline completes by itself once back online, byte-identical', async ({ page, context, member, hearth }) => {
    test.setTimeout(120_000);
    await signIn(page, member);
    const content = crypto.randomBytes(12 * 1024 * 1024);
    const file = await tempFile('video-from-the-party.mp4', content);
    const cdp = await throttleUploads(page, 1024 * 1024);
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload' }).click();
    await (await chooser).setFiles(file);
    await expect.poll(() => percentOf(page, 'video-from-the-party.mp4'), { timeout: 30_000 }).toBeGreaterThanOrEqual(10);
    await context.setOffline(true);
    // The request under way may finish its chunk; after that nothing moves while the network is gone.
    let stalled = -1;
    await expect
      .poll(
        async () => {
          const before = await percentOf(page, 'video-from-the-party.mp4');
          await page.waitForTimeout(1_500);
          stalled = await percentOf(page, 'video-from-the-party.mp4');
          return stalled === before;
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    expect(stalled).toBeLessThan(100);
    await context.setOffline(false);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await expect(page.getByText('1 video uploaded')).toBeVisible({ timeout: 60_000 });
    const listed = await hearth.api.ok('GET', '/nodes?parent_id=root', member.access);
    expect(listed.items.map((n: { name: string }) => n.name)).toEqual(['video-from-the-party.mp4']);
    expect(sha(await contentOf(hearth, member.access, listed.items[0].id))).toBe(sha(content));
  });

  test('after a reload the app says which file was not sent; choosing it again continues it into the same folder', async ({
    page,
    member,
    hearth,
  }) => {
    test.setTimeout(120_000);
    const folder = await hearth.api.ok('POST', '/nodes/folder', member.access, { name: 'Camera roll' });
    await signIn(page, member);
    await page.goto(`/files/${folder.id}`);
    const content = crypto.randomBytes(8 * 1024 * 1024);
    const file = await tempFile('long-clip.mov', content);
    const cdp = await throttleUploads(page, 1024 * 1024);
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload' }).click();
    await (await chooser).setFiles(file);
    await expect.poll(() => percentOf(page, 'long-clip.mov'), { timeout: 30_000 }).toBeGreaterThanOrEqual(15);
    await page.reload();
    await cdp
      .send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 })
      .catch(() => undefined);
    await expect(page.getByText('1 file not sent: choose it again.')).toBeVisible();
    const again = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Choose files again' }).click();
    await (await again).setFiles(file);
    await expect(page.getByText('1 video uploaded')).toBeVisible({ timeout: 60_000 });
    const inside = await hearth.api.ok('GET', `/nodes?parent_id=${folder.id}`, member.access);
    expect(inside.items.map((n: { name: string }) => n.name)).toEqual(['long-clip.mov']);
    expect(sha(await contentOf(hearth, member.access, inside.items[0].id))).toBe(sha(content));
    await page.reload();
    await expect(page.getByText(/not sent/)).toHaveCount(0);
  });
});

test('names that clash ask once per batch; the same file already there is skipped and counted; replace keeps the old one as a version', async ({
  page,
  member,
  hearth,
}) => {
  const { uploadAs } = await import('./support/hearth.ts');
  const a = Buffer.from('same content');
  await uploadAs(hearth.api, member, 'a.txt', a);
  const oldB = Buffer.from('the first b');
  const bId = await uploadAs(hearth.api, member, 'b.txt', oldB);
  await uploadAs(hearth.api, member, 'd.txt', Buffer.from('the first d'));
  await signIn(page, member);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload' }).click();
  await (
    await chooser
  ).setFiles([
    { name: 'a.txt', mimeType: 'text/plain', buffer: a },
    { name: 'b.txt', mimeType: 'text/plain', buffer: Buffer.from('the second, longer b') },
    { name: 'd.txt', mimeType: 'text/plain', buffer: Buffer.from('the second, longer d') },
    { name: 'c.txt', mimeType: 'text/plain', buffer: Buffer.from('new') },
  ]);
  const question = page.getByRole('dialog', { name: '2 files with these names are already here' });
  await expect(question).toBeVisible();
  await question.getByRole('button', { name: /Replace/ }).click();
  const panel = page.getByRole('region', { name: 'Uploads' });
  await expect(panel.getByText('3 files uploaded')).toBeVisible();
  await expect(panel.getByText('1 already here')).toBeVisible();
  const root = await hearth.api.ok('GET', '/nodes?parent_id=root&sort=name', member.access);
  expect(root.items.map((n: { name: string }) => n.name)).toEqual(['a.txt', 'b.txt', 'c.txt', 'd.txt']);

  // The old b is a version, and can be made current again.
  await page.getByRole('button', { name: 'More for b.txt' }).click();
  await page.getByRole('button', { name: 'Versions', exact: true }).click();
  const versions = page.getByRole('list', { name: 'Versions' }).getByRole('listitem');
  await expect(versions).toHaveCount(2);
  await page.getByRole('button', { name: 'Restore version 1' }).click();
  await expect(versions).toHaveCount(3);
  expect((await contentOf(hearth, member.access, bId)).toString()).toBe('the first b');
});

test('a full quota says so in plain words, and the storage bar shows used and limit', async ({ page, member, hearth, owner }) => {
  await hearth.api.ok('PATCH', `/admin/users/${member.id}`, owner.access, { quota_bytes: 1000 });
  await signIn(page, member);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload' }).click();
  await (await chooser).setFiles({ name: 'big.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(5000, 1) });
  // The line says it was not uploaded; its list says why.
  await page.getByRole('region', { name: 'Uploads' }).getByRole('button', { name: '1 file not uploaded' }).click();
  await expect(
    page.getByText('Not enough space left in your storage for this. Delete something (and empty the trash) or ask for more space.'),
  ).toBeVisible();
  await page.goto('/account');
  await expect(page.getByRole('region', { name: 'Storage' })).toContainText('0 bytes of 1000 bytes used');
});
