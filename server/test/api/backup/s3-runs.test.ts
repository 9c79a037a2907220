import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Decrypter } from 'age-encryption';
import { setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { addFolderDestination, backUp, destinationFolder } from '../../helpers/backup.ts';
import { addS3Destination, startS3, type TestS3 } from '../../helpers/s3.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

const sha256 = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex');
const ROOT = 'hearth-backup/';

/** A port on 127.0.0.1 nobody listens on: an S3 service that cannot be reached. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('off-site backups to an S3 bucket: checked when added, always encrypted, incremental, verifiable, pruned', () => {
  let t: TestServer;
  let s3: TestS3;
  let owner: SignedIn;
  const folders: string[] = [];
  const upload = async (size: number, name: string) => {
    const data = crypto.randomBytes(size);
    const id = await uploadFile(t.api, owner.access, data, { filename: name });
    return { id, data };
  };

  before(async () => {
    s3 = await startS3();
    t = await startTestServer();
    owner = await setupOwner(t.client);
  });
  after(async () => {
    await t.close();
    await s3.stop();
    for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
  });

  test('a bucket that cannot be used is refused when added, in words, on the field that is wrong', async () => {
    const add = (body: object) => t.client.post('/admin/backup/destinations', body, { token: owner.access });
    const wrongSecret = await add(s3.destination({ secret_access_key: 'not-the-secret' }));
    assertError(wrongSecret, 400, 'invalid_destination', 'secret_access_key');
    assert.match(wrongSecret.body.error.message, /secret key does not match/);
    const unknownKey = await add(s3.destination({ access_key_id: 'NOBODY' }));
    assertError(unknownKey, 400, 'invalid_destination', 'access_key_id');
    assert.match(unknownKey.body.error.message, /access key does not exist/);
    const noBucket = await add(s3.destination({ bucket: 'no-such-bucket' }));
    assertError(noBucket, 400, 'invalid_destination', 'bucket');
    assert.match(noBucket.body.error.message, /"no-such-bucket" does not exist/);
    const port = await closedPort();
    const unreachable = await add(s3.destination({ endpoint: `http://127.0.0.1:${port}` }));
    assertError(unreachable, 400, 'invalid_destination', 'endpoint');
    assert.equal(unreachable.body.error.message, `Hearth cannot reach 127.0.0.1:${port}. Is this PC online, and is the address right?`);
    assertError(await add(s3.destination({ endpoint: 'ftp://example.org' })), 400, 'invalid_destination', 'endpoint');
    assertError(await add(s3.destination({ prefix: 'a/../b' })), 400, 'invalid_destination', 'prefix');
    assertError(await add({ kind: 's3', endpoint: s3.endpoint, bucket: s3.bucket }), 400, 'missing_field', 'access_key_id');
    assert.deepEqual((await t.client.get('/admin/backup', { token: owner.access })).body.destinations, [], 'nothing was added');
    assert.deepEqual(await s3.objects(), [], 'and nothing was left in the bucket');
  });

  test('a bucket backup is encrypted, incremental and verifiable; the secret key is never shown; the bucket sees no file name and no content', async () => {
    const files = [await upload(200_000, 'Grandma birthday.jpg'), await upload(9_000_000, 'Holiday video.mp4')];
    const dest = await addS3Destination(t.client, owner.access, s3, { prefix: 'family/hearth', name: 'Off-site' });
    assert.equal(dest.kind, 's3');
    assert.equal(dest.encrypted, true, 'off-site is always encrypted');
    assert.equal(dest.name, 'Off-site');
    assert.deepEqual(dest.s3, {
      endpoint: s3.endpoint,
      region: 'us-east-1',
      bucket: s3.bucket,
      prefix: 'family/hearth',
      access_key_id: s3.accessKeyId,
    });
    assert.equal(dest.path, `${s3.endpoint}/${s3.bucket}/family/hearth`);
    const twice = await t.client.post('/admin/backup/destinations', s3.destination({ prefix: 'family/hearth' }), { token: owner.access });
    assertError(twice, 400, 'invalid_destination', 'prefix');

    const first = await backUp(t.client, owner.access, dest.id);
    assert.equal(first.state, 'succeeded', JSON.stringify(first));
    assert.equal(first.files, 2 + files.length);
    assert.ok(first.bytes_copied >= 9_200_000);
    const snapshots = (await t.client.get(`/admin/backup/destinations/${dest.id}/snapshots`, { token: owner.access })).body.items;
    assert.deepEqual(
      snapshots.map((s: any) => s.id),
      [first.snapshot_id],
    );

    // The layout of a folder, under the prefix: every object but the public key is an age file, and no key names a file.
    const objects = await s3.objects();
    const base = `family/hearth/${ROOT}`;
    assert.ok(
      objects.every((o) => o.key.startsWith(base)),
      objects.map((o) => o.key).join('\n'),
    );
    const key = (await t.client.get('/admin/backup/kit', { token: owner.access })).body;
    const recipient = objects.find((o) => o.key === `${base}age-recipient.txt`)!;
    assert.equal(recipient.bytes.toString('utf8').trim(), key.public_key);
    const decrypter = new Decrypter();
    decrypter.addIdentity(key.key);
    for (const object of objects) {
      assert.doesNotMatch(object.key, /Grandma|Holiday|\.jpg|\.mp4/);
      if (object === recipient) continue;
      assert.ok(object.bytes.subarray(0, 21).toString('latin1').startsWith('age-encryption.org/v1'), `${object.key} is an age file`);
      for (const name of ['Grandma birthday', 'Holiday video', s3.secretAccessKey])
        assert.ok(!object.bytes.includes(Buffer.from(name)), `${object.key} shows nothing in clear`);
    }
    const manifest = JSON.parse(
      await decrypter.decrypt(objects.find((o) => o.key === `${base}snapshots/${first.snapshot_id}/manifest.json`)!.bytes, 'text'),
    );
    assert.equal(manifest.format, 'hearth-backup/2+age');
    for (const file of files) {
      const entry = manifest.files.find((f: any) => f.sha256 === sha256(file.data));
      assert.ok(entry, 'each photo is listed by its SHA-256');
      const stored = objects.find((o) => o.key === `${base}${entry.path}`)!;
      const padded = Buffer.from(await decrypter.decrypt(stored.bytes));
      assert.ok(padded.subarray(0, entry.size).equals(file.data), 'and decrypts to its bytes (then padding) with the kit');
    }

    // The second run copies only what is new.
    const fresh = await upload(50_000, 'New photo.jpg');
    const second = await backUp(t.client, owner.access, dest.id);
    assert.equal(second.state, 'succeeded', JSON.stringify(second));
    assert.equal(second.files, first.files + 1);
    const dbAndKeys = manifestSizes(await decrypter.decrypt(objects.find((o) => o.key.endsWith('manifest.json'))!.bytes, 'text'));
    assert.ok(second.bytes_copied < fresh.data.length + dbAndKeys + 10_000, `only the new photo and the database: ${second.bytes_copied}`);

    const verify = await backUp(t.client, owner.access, dest.id, 'verify');
    assert.equal(verify.state, 'succeeded', JSON.stringify(verify));
    assert.deepEqual(verify.problems, []);

    // The secret is in no answer, and not in the database that travels in backups.
    const shown = await t.client.get('/admin/backup', { token: owner.access });
    assert.ok(!JSON.stringify(shown.body).includes(s3.secretAccessKey));
    assert.ok(!fs.readFileSync(path.join(t.dataDir, 'hearth.db')).includes(Buffer.from(s3.secretAccessKey)));
    const secrets = path.join(t.dataDir, 'backup-secrets.json');
    assert.equal(fs.statSync(secrets).mode & 0o777, 0o600, 'kept in the data folder, for the server alone');
    const folder = destinationFolder();
    folders.push(folder);
    const plain = await addFolderDestination(t.client, owner.access, folder);
    assert.equal((await backUp(t.client, owner.access, plain.id)).state, 'succeeded');
    const copies = fs.readdirSync(path.join(folder, ROOT, 'snapshots'));
    const plainDb = fs.readFileSync(path.join(folder, ROOT, 'snapshots', copies[0]!, 'hearth.db'));
    assert.ok(plainDb.includes(Buffer.from(s3.accessKeyId)), 'the plain copy holds the destination');
    assert.ok(!plainDb.includes(Buffer.from(s3.secretAccessKey)), 'but never the secret key of the bucket');
    assert.equal((await t.client.delete(`/admin/backup/destinations/${plain.id}`, { token: owner.access })).status, 204);
    assert.equal((await t.client.delete(`/admin/backup/destinations/${dest.id}`, { token: owner.access })).status, 204);
    assert.ok(!fs.readFileSync(secrets, 'utf8').includes(s3.secretAccessKey), 'a forgotten destination takes its secret along');
  });

  test('verify names an object whose byte was flipped in the bucket, and one that is gone', async () => {
    await upload(120_000, 'flip.bin');
    const dest = await addS3Destination(t.client, owner.access, s3, { prefix: 'verify' });
    const run = await backUp(t.client, owner.access, dest.id);
    assert.equal(run.state, 'succeeded', JSON.stringify(run));
    const content = (await s3.objects(`verify/${ROOT}content/`)).sort((a, b) => b.bytes.length - a.bytes.length);
    const [damaged, gone] = content;
    const flipped = Buffer.from(damaged!.bytes);
    flipped[flipped.length - 100]! ^= 0x01;
    await s3.put(damaged!.key, flipped);
    await s3.remove(gone!.key);
    const verify = await backUp(t.client, owner.access, dest.id, 'verify');
    assert.equal(verify.state, 'failed');
    assert.equal(verify.error, '2 files in the backup are damaged or missing.');
    assert.deepEqual(
      verify.problems.map((p: any) => [p.path, p.reason]).sort(),
      [
        [damaged!.key.slice(`verify/${ROOT}`.length), 'The file is damaged: it no longer decrypts with the backup key.'],
        [gone!.key.slice(`verify/${ROOT}`.length), 'The file is missing from the backup.'],
      ].sort(),
    );
    await t.client.delete(`/admin/backup/destinations/${dest.id}`, { token: owner.access });
  });

  test('retention prunes old snapshots in the bucket, and the content only they needed', async () => {
    const dest = await addS3Destination(t.client, owner.access, s3, { prefix: 'retention' });
    const patched = await t.client.patch(
      `/admin/backup/destinations/${dest.id}`,
      { retention: { last: 0, daily: 1, weekly: 0, monthly: 0 } },
      { token: owner.access },
    );
    assert.equal(patched.status, 200);
    const gone = await upload(70_000, 'deleted-later.bin');
    const first = await backUp(t.client, owner.access, dest.id);
    assert.equal(first.state, 'succeeded');
    const contentBefore = (await s3.objects(`retention/${ROOT}content/`)).map((o) => o.key);
    assert.equal((await t.client.delete(`/nodes/${gone.id}`, { token: owner.access })).status, 200);
    const purge = await t.client.delete(`/nodes/${gone.id}/permanent`, { token: owner.access });
    assert.ok([200, 204].includes(purge.status), JSON.stringify(purge.body));

    const second = await backUp(t.client, owner.access, dest.id);
    assert.equal(second.state, 'succeeded', JSON.stringify(second));
    assert.deepEqual(second.problems, []);
    const keys = (await s3.objects(`retention/${ROOT}`)).map((o) => o.key);
    assert.ok(!keys.some((k) => k.includes(first.snapshot_id)), 'the older snapshot is gone, all its objects');
    assert.ok(keys.some((k) => k.endsWith(`${second.snapshot_id}/manifest.json`)));
    const contentAfter = keys.filter((k) => k.startsWith(`retention/${ROOT}content/`));
    assert.equal(contentAfter.length, contentBefore.length - 1, 'the deleted photo only the pruned snapshot needed is gone');
    assert.equal((await backUp(t.client, owner.access, dest.id, 'verify')).state, 'succeeded', 'the kept snapshot is whole');
    await t.client.delete(`/admin/backup/destinations/${dest.id}`, { token: owner.access });
  });

  test('new keys for a bucket are checked before they replace the old ones', async () => {
    const dest = await addS3Destination(t.client, owner.access, s3, { prefix: 'keys' });
    const wrong = await t.client.patch(`/admin/backup/destinations/${dest.id}`, { secret_access_key: 'wrong' }, { token: owner.access });
    assertError(wrong, 400, 'invalid_destination', 'secret_access_key');
    assert.equal((await backUp(t.client, owner.access, dest.id)).state, 'succeeded', 'the old keys still work');
    const same = await t.client.patch(
      `/admin/backup/destinations/${dest.id}`,
      { access_key_id: s3.accessKeyId, secret_access_key: s3.secretAccessKey },
      { token: owner.access },
    );
    assert.equal(same.status, 200, JSON.stringify(same.body));
    assert.ok(!JSON.stringify(same.body).includes(s3.secretAccessKey));
    await t.client.delete(`/admin/backup/destinations/${dest.id}`, { token: owner.access });
  });
});

/** The bytes of a snapshot's own files (database and keys.json), which every run writes again. */
function manifestSizes(text: string): number {
  const manifest = JSON.parse(text) as { files: { path: string; size: number }[] };
  return manifest.files.filter((f) => f.path.startsWith('snapshots/')).reduce((sum, f) => sum + f.size, 0);
}
