import crypto from 'node:crypto';
import sharp from 'sharp';
import { expect, signIn, test } from './support/fixtures.ts';

/** Small real JPEGs, each a different colour, so each has its own content and thumbnail. */
async function photos(count: number): Promise<{ name: string; mimeType: string; buffer: Buffer }[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => ({
      name: `photo-${String(i + 1).padStart(2, '0')}.jpg`,
      mimeType: 'image/jpeg',
      buffer: await sharp({ create: { width: 64 + i, height: 48, channels: 3, background: { r: (i * 37) % 255, g: (i * 91) % 255, b: 120 } } })
        .jpeg()
        .toBuffer(),
    })),
  );
}

test.describe('upload @lan', () => {
  test('20 photos chosen from the phone upload with progress, land in My files byte-identical, and their thumbnails appear', async ({ page, member, hearth }) => {
    test.setTimeout(120_000);
    await signIn(page, member);
    const files = await photos(20);
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload' }).click();
    await (await chooser).setFiles(files);

    const panel = page.getByRole('region', { name: 'Uploads' });
    await expect(panel.getByRole('progressbar', { name: 'All uploads' })).toBeVisible();
    await expect(panel.getByText('20 files uploaded')).toBeVisible({ timeout: 60_000 });

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
      expect(crypto.createHash('sha256').update(got).digest('hex')).toBe(crypto.createHash('sha256').update(files[i]!.buffer).digest('hex'));
    }
  });
});
