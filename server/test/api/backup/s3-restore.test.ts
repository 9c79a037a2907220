import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { generateX25519Identity } from 'age-encryption';
import { createMember, login, setupOwner, OWNER, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { backUp, restoreBeside, restoredServer } from '../../helpers/backup.ts';
import { addS3Destination, startS3, type TestS3 } from '../../helpers/s3.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

describe('restore a whole server from an off-site bucket, on a fresh install: the family signs in, and the bucket keeps backing up', () => {
  let s3: TestS3;
  let source: TestServer;
  let owner: SignedIn;
  let grandma: SignedIn;
  let photo: Buffer;
  let photoId: string;
  let kitText: string;
  let sourceDestination: any;
  const fresh: TestServer[] = [];

  before(async () => {
    s3 = await startS3();
    source = await startTestServer();
    owner = await setupOwner(source.client);
    grandma = await createMember(source.client, owner, 'grandma');
    photo = crypto.randomBytes(300_000);
    photoId = await uploadFile(source.api, grandma.access, photo, { filename: 'wedding.jpg' });
    sourceDestination = await addS3Destination(source.client, owner.access, s3, { prefix: 'home' });
    assert.equal((await backUp(source.client, owner.access, sourceDestination.id)).state, 'succeeded');
    kitText = (await source.client.get('/admin/backup/kit', { token: owner.access })).body.file_text;
  });
  after(async () => {
    for (const server of fresh) await server.close();
    await source.close();
    await s3.stop();
  });

  test('a bucket that cannot be read, or a wrong kit, is a clear error and nothing is touched', async () => {
    const t = await startTestServer();
    fresh.push(t);
    const body = (extra: object = {}) => s3.destination({ prefix: 'home', ...extra });
    assertError(await t.client.post('/setup/restore/snapshots', body()), 400, 'backup_key_required', 'key');
    assertError(
      await t.client.post('/setup/restore/snapshots', body({ key: await generateX25519Identity() })),
      400,
      'backup_key_wrong',
      'key',
    );
    const wrongSecret = await t.client.post('/setup/restore/snapshots', body({ secret_access_key: 'nope', key: kitText }));
    assertError(wrongSecret, 400, 'backup_not_found', 'secret_access_key');
    assert.match(wrongSecret.body.error.message, /secret key does not match/);
    const elsewhere = await t.client.post('/setup/restore/snapshots', body({ prefix: 'not-here', key: kitText }));
    assertError(elsewhere, 400, 'backup_not_found', 'prefix');
    assert.match(elsewhere.body.error.message, /no Hearth backup in s3:\/\/family-backups\/not-here/);
    assertError(await t.client.post('/setup/restore', body({ bucket: 'other-bucket', key: kitText })), 400, 'backup_not_found', 'bucket');
    assert.ok(!fs.existsSync(path.join(t.dataDir, 'restore')), 'nothing staged');
    assert.equal((await t.client.get('/status')).body.setup_required, true);
  });

  test('with the kit, a fresh server lists the bucket’s snapshots and restores the newest: everyone signs in, the photo is back, and the bucket is still its working destination', async () => {
    const t = await startTestServer();
    fresh.push(t);
    const listed = await t.client.post('/setup/restore/snapshots', s3.destination({ prefix: '/home/', key: kitText }));
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    assert.equal(listed.body.encrypted, true);
    assert.equal(listed.body.items.length, 1);
    const started = await t.client.post(
      '/setup/restore',
      s3.destination({ prefix: 'home', key: kitText, snapshot_id: listed.body.items[0].id }),
    );
    assert.equal(started.status, 202, JSON.stringify(started.body));
    assert.ok(!JSON.stringify(started.body).includes(s3.secretAccessKey));
    await restoredServer(t.client);

    const me = await login(t.client, OWNER.username, OWNER.password);
    const gm = await login(t.client, 'grandma', grandma.password);
    const files = await t.client.get('/nodes?parent_id=root', { token: gm.access });
    assert.equal(files.status, 200, JSON.stringify(files.body));
    const wedding = files.body.items.find((n: any) => n.name === 'wedding.jpg');
    assert.ok(wedding, 'grandma finds her photo');
    const bytes = Buffer.from(
      await (await fetch(`${t.api}/nodes/${wedding.id}/download`, { headers: { authorization: `Bearer ${gm.access}` } })).arrayBuffer(),
    );
    assert.ok(bytes.equals(photo), 'byte for byte');

    // The restored server backs up to the same bucket with the keys typed at restore, kept out of its database.
    const overview = await t.client.get('/admin/backup', { token: me.access });
    const destination = overview.body.destinations.find((d: any) => d.id === sourceDestination.id);
    assert.ok(destination, 'the bucket is still a destination');
    assert.ok(!JSON.stringify(overview.body).includes(s3.secretAccessKey));
    assert.ok(!fs.readFileSync(path.join(t.dataDir, 'hearth.db')).includes(Buffer.from(s3.secretAccessKey)));
    const next = await backUp(t.client, me.access, destination.id);
    assert.equal(next.state, 'succeeded', JSON.stringify(next));
    assert.equal((await backUp(t.client, me.access, destination.id, 'verify')).state, 'succeeded');
  });
  test("one photo back from the bucket on the server it came from, beside itself: grandma's bytes, read on the event loop", async () => {
    const listed = await source.client.get(`/admin/backup/destinations/${sourceDestination.id}/snapshots`, { token: owner.access });
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    const snapshot = listed.body.items[0].id as string;
    const run = await restoreBeside(source.client, owner.access, sourceDestination.id, snapshot, photoId);
    assert.equal(run.state, 'succeeded', JSON.stringify(run));
    const items = (await source.client.get('/nodes?parent_id=root&limit=100', { token: grandma.access })).body.items as {
      id: string;
      name: string;
    }[];
    const copy = items.find((n) => n.id !== photoId && n.name.startsWith('wedding'));
    assert.ok(copy, JSON.stringify(items.map((n) => n.name)));
    const res = await fetch(`${source.api}/nodes/${copy.id}/download`, { headers: { Authorization: `Bearer ${grandma.access}` } });
    assert.ok(Buffer.from(await res.arrayBuffer()).equals(photo));
  });
});
