import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Encrypter } from 'age-encryption';
import { openConnection } from '../../../src/store/database/db.ts';
import { setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { addFolderDestination, backUp, destinationFolder } from '../../helpers/backup.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

/** The content size of an age file of `stored` bytes: `empty` is what age makes of no bytes, and each further 64 KiB chunk adds 16. */
function contentSizeOf(stored: number, empty: number): number {
  for (let chunks = 1; ; chunks++) {
    const size = stored - empty - 16 * (chunks - 1);
    if (Math.max(1, Math.ceil(size / 65536)) === chunks) return size;
  }
}

/*
 * Whoever holds an encrypted backup (a bucket's owner, a found USB disk) must learn no more than
 * the format document says: not when each file was uploaded (ids are ULIDs, which begin with
 * their time) and not each file's exact size (which tells a film, a passport scan, a
 * particular document from another). Content is named by a keyed hash and padded before it is encrypted.
 */
describe("an encrypted backup's folder shows neither each file's exact size nor when it was uploaded", () => {
  let t: TestServer;
  let owner: SignedIn;
  let root: string;
  const sizes = [1, 700, 5_000, 300_001, 2_000_003];
  const temps: string[] = [];

  before(async () => {
    t = await startTestServer();
    owner = await setupOwner(t.client);
    for (const size of sizes) await uploadFile(t.api, owner.access, crypto.randomBytes(size), { filename: `file-${size}.bin` });
    const folder = destinationFolder();
    temps.push(folder);
    root = path.join(folder, 'hearth-backup');
    const dest = await addFolderDestination(t.client, owner.access, folder, { encrypt: true });
    const run = await backUp(t.client, owner.access, dest.id);
    assert.equal(run.state, 'succeeded', JSON.stringify(run));
  });
  after(async () => {
    await t.close();
    for (const made of temps) fs.rmSync(made, { recursive: true, force: true });
  });

  const contentFiles = () =>
    (fs.readdirSync(path.join(root, 'content'), { recursive: true }) as string[])
      .map((p) => path.join(root, 'content', p))
      .filter((p) => fs.statSync(p).isFile());

  test('no content file is named by its id, or by anything that begins with a time', () => {
    const db = openConnection(path.join(t.dataDir, 'hearth.db'), { readonly: true, fileMustExist: true });
    let ids: string[];
    try {
      ids = (db.prepare('SELECT blob FROM node_versions').all() as { blob: string }[]).map((r) => r.blob);
    } finally {
      db.close();
    }
    assert.equal(ids.length, sizes.length);
    const files = contentFiles();
    assert.equal(files.length, sizes.length);
    for (const file of files) {
      const relative = path.relative(root, file);
      for (const id of ids) assert.ok(!relative.includes(id) && !relative.includes(id.slice(0, 10)), `${relative} names content ${id}`);
      assert.match(path.basename(file), /^[0-9a-f]{64}$/, 'a keyed hash: 64 hex digits, nothing of a ULID');
    }
  });

  test("no content file's size gives its content's size: small files all look alike, bigger ones are rounded up", async () => {
    const stored = contentFiles().map((f) => fs.statSync(f).size);
    // What age adds, measured as the finder of the disk would: the public key is beside the files.
    const encrypter = new Encrypter();
    encrypter.addRecipient(fs.readFileSync(path.join(root, 'age-recipient.txt'), 'utf8').trim());
    const empty = (await encrypter.encrypt(new Uint8Array(0))).length;
    const shown = stored.map((size) => contentSizeOf(size, empty));
    for (const size of shown) assert.ok(!sizes.includes(size), `a content file shows its exact size ${size}`);
    for (const size of sizes.filter((s) => s > 1024))
      assert.ok(
        shown.some((s) => s > size && s <= size * 1.0625),
        `${size} bytes are rounded up by at most 6.25%: ${shown.join(', ')}`,
      );
    const small = stored.filter((s) => s < 2000);
    assert.equal(small.length, 2, 'the 1-byte and the 700-byte file');
    assert.equal(small[0], small[1], 'the same size on the destination');
  });
});
