import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

/*
 * A Linux without util-linux (a minimal container, a fresh machine's test user with a bare
 * PATH): the drive page lists nothing and says what to install, instead of answering 500.
 * This file's process has a PATH of one empty folder, so no lsblk is found.
 */
describe('drives on a Linux without lsblk', { skip: process.platform !== 'linux' && 'lsblk is how Linux lists drives' }, () => {
  let t: TestServer;
  let owner: SignedIn;
  let emptyBin: string;
  const savedPath = process.env.PATH;

  before(async () => {
    emptyBin = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-no-tools-'));
    process.env.PATH = emptyBin;
    t = await startTestServer();
    owner = await setupOwner(t.client);
  });

  after(async () => {
    await t?.close();
    process.env.PATH = savedPath;
    fs.rmSync(emptyBin, { recursive: true, force: true });
  });

  test('GET /admin/drives answers 200 with no drives, and every capability names lsblk and how to get it', async () => {
    const res = await t.client.get('/admin/drives', { token: owner.access });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.items, []);
    for (const capability of ['format', 'mount', 'pool'] as const) {
      assert.equal(res.body.capabilities[capability].available, false);
      assert.match(res.body.capabilities[capability].reason, /lsblk.*util-linux/);
    }
  });

  test('a drive id then is 404 not_found for a look, a mount and a format, never 500', async () => {
    assertError(await t.client.get('/admin/drives/sda', { token: owner.access }), 404, 'not_found');
    assertError(await t.client.post('/admin/drives/sda/mount', { name: 'USB' }, { token: owner.access }), 404, 'not_found');
    assertError(
      await t.client.post('/admin/drives/sda/format', { filesystem: 'ext4', confirmation: 'FORMAT /dev/sda' }, { token: owner.access }),
      404,
      'not_found',
    );
  });
});
