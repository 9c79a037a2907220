import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

/* Issue 12, finding 16: a photo's EXIF can say anything; a date no camera took is no capture time. */

let t: TestServer;
let owner: SignedIn;

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
});
after(() => t.close());

describe('capture times from EXIF', () => {
  async function photoTakenAt(date: string): Promise<number | undefined> {
    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3366aa' } })
      .jpeg()
      .withExif({ IFD0: { Make: 'test' }, IFD2: { DateTimeOriginal: date } })
      .toBuffer();
    const id = await uploadFile(t.api, owner.access, jpeg, { filename: `taken-${date.replace(/\W/g, '')}.jpg` });
    await t.server.mediaIdle();
    const node = (await t.client.get(`/nodes/${id}`, { token: owner.access })).body;
    assert.equal(node.has_thumbnail, true, JSON.stringify(node));
    return node.taken_at;
  }

  test('a DateTimeOriginal of 9999:99:99, of 1850 or of the year after next gives no taken_at; one within 1900..next year does', async () => {
    const nextYear = new Date().getUTCFullYear() + 1;
    assert.equal(await photoTakenAt('9999:99:99 99:99:99'), undefined);
    assert.equal(await photoTakenAt('1850:06:01 12:00:00'), undefined);
    assert.equal(await photoTakenAt(`${nextYear + 1}:01:01 00:00:00`), undefined);
    assert.equal(await photoTakenAt('1901:02:03 04:05:06'), Date.UTC(1901, 1, 3, 4, 5, 6));
    assert.equal(await photoTakenAt(`${nextYear}:12:31 23:59:59`), Date.UTC(nextYear, 11, 31, 23, 59, 59));
  });
});
