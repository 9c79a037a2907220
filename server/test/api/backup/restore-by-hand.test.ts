import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { login, OWNER, setupOwner } from '../../helpers/accounts.ts';
import { addFolderDestination, backUp, destinationFolder, readManifest } from '../../helpers/backup.ts';
import { makeTempDir, startTestServer } from '../../helpers/server.ts';
import { missingTool, skipBecause } from '../../helpers/skip.ts';
import { uploadFile } from '../../helpers/upload.ts';

test('a person restores a snapshot by hand, as docs/backup-format.md says, and the family signs in and opens its files', async (ctx) => {
  const missing = missingTool('age', 'age');
  if (missing) return skipBecause(ctx, missing);
  const folder = destinationFolder();
  const restored = await makeTempDir();
  const kit = path.join(await makeTempDir('hearth-kit-'), 'kit.txt');
  try {
    const original = await startTestServer();
    const photo = crypto.randomBytes(250_000);
    let nodeId: string;
    try {
      const owner = await setupOwner(original.client);
      nodeId = await uploadFile(original.api, owner.access, photo, { filename: 'grandma.jpg' });
      const dest = await addFolderDestination(original.client, owner.access, folder);
      const run = await backUp(original.client, owner.access, dest.id);
      assert.equal(run.state, 'succeeded', JSON.stringify(run));
      fs.writeFileSync(kit, (await original.client.get('/admin/backup/kit', { token: owner.access })).body.file_text);
    } finally {
      await original.close();
    }

    // The steps of docs/backup-format.md, "Restoring by hand", into an empty data folder.
    const root = path.join(folder, 'hearth-backup');
    const [snapshot] = fs.readdirSync(path.join(root, 'snapshots'));
    const manifest = readManifest(folder, snapshot!);
    fs.copyFileSync(path.join(root, 'snapshots', snapshot!, 'hearth.db'), path.join(restored, 'hearth.db'));
    // keys.json is sealed to the emergency kit, even in a plain backup.
    execFileSync('age', ['-d', '-i', kit, '-o', path.join(restored, 'keys.json'), path.join(root, 'snapshots', snapshot!, 'keys.json')]);
    for (const file of manifest.files.filter((f) => f.path.startsWith('content/internal/'))) {
      const target = path.join(restored, 'files', 'blobs', ...file.path.split('/').slice(2));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.copyFileSync(path.join(root, file.path), target);
    }

    const again = await startTestServer({ dataDir: restored });
    try {
      const owner = await login(again.client, OWNER.username, OWNER.password);
      const download = await fetch(`${again.api}/nodes/${nodeId}/download`, { headers: { authorization: `Bearer ${owner.access}` } });
      assert.equal(download.status, 200);
      assert.ok(Buffer.from(await download.arrayBuffer()).equals(photo), 'the photo is back, byte for byte');
      const overview = await again.client.get('/admin/backup', { token: owner.access });
      assert.equal(
        overview.body.destinations[0].last_run.state,
        'succeeded',
        'the run that made the snapshot reads as done, not as cut short',
      );
    } finally {
      await again.close();
    }
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
    fs.rmSync(restored, { recursive: true, force: true });
    fs.rmSync(path.dirname(kit), { recursive: true, force: true });
  }
});
