/**
 * A clean-up in a backup folder removes only what Hearth made there: its `.part` files in tmp/,
 * the files of a snapshot it prunes, content files it named. Someone else's things beside them
 * (notes, a photo folder, a Finder's .DS_Store, a folder left inside a snapshot) stay, and are
 * never entered. A hard link to a file outside loses only its name in the backup: the file
 * outside keeps its bytes, whether Hearth removes the name or writes a file of that name.
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { addFolderDestination, backUp, blobHolding, destinationFolder } from '../../helpers/backup.ts';
import { homeFolder, treeOf } from '../../helpers/file-tree.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

describe("clean-ups in a backup folder remove only Hearth's own names", () => {
  let t: TestServer;
  let owner: SignedIn;
  const temps: string[] = [];

  before(async () => {
    t = await startTestServer();
    owner = await setupOwner(t.client);
    await uploadFile(t.api, owner.access, crypto.randomBytes(25_000), { filename: 'kept.jpg' });
  });
  after(async () => {
    await t.close();
    for (const made of temps) fs.rmSync(made, { recursive: true, force: true });
  });

  /** Writes `text` at `relative` under the folder, making its folders. */
  function put(root: string, relative: string, text: string): void {
    fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    fs.writeFileSync(path.join(root, relative), text);
  }

  test("someone else's files in tmp/, content/ and snapshots/ stay through a run and its pruning; Hearth's leftovers go", async () => {
    const folder = destinationFolder();
    temps.push(folder);
    const root = path.join(folder, 'hearth-backup');
    const dest = await addFolderDestination(t.client, owner.access, folder);
    const pruneAll = { retention: { last: 0, daily: 1, weekly: 0, monthly: 0 } };
    assert.equal((await t.client.patch(`/admin/backup/destinations/${dest.id}`, pruneAll, { token: owner.access })).status, 200);
    const first = await backUp(t.client, owner.access, dest.id);
    assert.equal(first.state, 'succeeded', JSON.stringify(first));

    const theirs = [
      'tmp/notes.txt',
      'tmp/keep/photo.jpg',
      'content/.DS_Store',
      'content/Family Photos/2024/IMG_0001.jpg',
      'content/internal/zz/notes.txt',
      'content/internal/zz/Thumbs.db',
      'snapshots/My old backup/photo.jpg',
      `snapshots/${first.snapshot_id}/Family notes/letter.txt`,
    ];
    for (const relative of theirs) put(root, relative, `someone else's ${relative}`);
    const planted = treeOf(root);
    const before = Object.fromEntries(theirs.map((relative) => [relative, planted[relative]]));
    // What a cut run of Hearth's would have left: a temp file, and a content file no snapshot lists.
    put(root, 'tmp/0123456789abcdef.part', 'half a file');
    put(root, 'content/internal/zz/01JD5ZZZZZZZZZZZZZZZZZZZZZ', 'content no snapshot lists');

    const second = await backUp(t.client, owner.access, dest.id);
    assert.equal(second.state, 'succeeded', JSON.stringify(second));
    assert.deepEqual(second.problems, []);
    const after = treeOf(root);
    for (const relative of theirs) assert.equal(after[relative], before[relative], `${relative} is still there, as it was`);
    assert.equal(after['tmp/0123456789abcdef.part'], undefined, "Hearth's temp file is cleared");
    assert.equal(after['content/internal/zz/01JD5ZZZZZZZZZZZZZZZZZZZZZ'], undefined, 'content no kept snapshot lists is pruned');
    assert.equal(after[`snapshots/${first.snapshot_id}/manifest.json`], undefined, 'the first snapshot is pruned');
    assert.equal(after[`snapshots/${first.snapshot_id}/hearth.db`], undefined, '…its own files with it');
    const listed = (await t.client.get(`/admin/backup/destinations/${dest.id}/snapshots`, { token: owner.access })).body.items;
    assert.deepEqual(
      listed.map((s: any) => s.id),
      [second.snapshot_id],
    );
    assert.equal((await backUp(t.client, owner.access, dest.id, 'verify')).state, 'succeeded');
  });

  test('a hard link to a file outside: pruning removes only its name, and a file Hearth writes under its name leaves the outside file as it was', async () => {
    const home = homeFolder();
    const folder = destinationFolder();
    temps.push(home, folder);
    const root = path.join(folder, 'hearth-backup');
    const dest = await addFolderDestination(t.client, owner.access, folder);
    const photo = crypto.randomBytes(35_000);
    await uploadFile(t.api, owner.access, photo, { filename: 'linked.jpg' });
    const blob = blobHolding(t.dataDir, photo);
    const whereHearthWrites = path.join(root, 'content', 'internal', path.basename(path.dirname(blob)), path.basename(blob));
    const unlisted = path.join(root, 'content', 'internal', 'zz', '01JD5YYYYYYYYYYYYYYYYYYYYY');
    fs.mkdirSync(path.dirname(whereHearthWrites), { recursive: true });
    fs.mkdirSync(path.dirname(unlisted), { recursive: true });
    fs.linkSync(path.join(home, 'letter.txt'), whereHearthWrites);
    fs.linkSync(path.join(home, 'Photos/2024/beach.jpg'), unlisted);
    const before = treeOf(home);

    const run = await backUp(t.client, owner.access, dest.id);
    assert.equal(run.state, 'succeeded', JSON.stringify(run));
    assert.deepEqual(treeOf(home), before, 'the files outside keep their bytes');
    assert.ok(fs.readFileSync(whereHearthWrites).equals(photo), 'the backup holds the photo under its name');
    assert.ok(!fs.existsSync(unlisted), 'the unlisted name is pruned');
    assert.equal((await backUp(t.client, owner.access, dest.id, 'verify')).state, 'succeeded');
  });
});
