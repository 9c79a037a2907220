import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import sharp from 'sharp';
import { setupOwner } from '../../helpers/accounts.ts';
import { ApiClient, makeTempDir } from '../../helpers/server.ts';
import { spawnServer } from '../../helpers/spawn.ts';
import { uploadFile } from '../../helpers/upload.ts';

/* Issue 12, finding 6: on a PC with several logins, no other account can read the family's data. */

/** Every file and folder under `root`, with its permission bits. */
async function modesUnder(root: string): Promise<{ file: string; dir: boolean; mode: number }[]> {
  const entries = await fs.readdir(root, { recursive: true, withFileTypes: true });
  return Promise.all(
    entries.map(async (e) => {
      const full = path.join(e.parentPath, e.name);
      return { file: path.relative(root, full), dir: e.isDirectory(), mode: (await fs.stat(full)).mode & 0o777 };
    }),
  );
}

test('a fresh data folder is 700, and everything the server writes in it (database, keys, content, temp uploads, thumbnails) is 600 or 700', async () => {
  const parent = await makeTempDir('hearth-modes-');
  const dataDir = path.join(parent, 'data');
  // The server process starts under the usual 022 umask (the test runner's), as npm start would.
  const server = await spawnServer(dataDir, { MEDIA_CONCURRENCY: '1' });
  try {
    const client = new ApiClient(server.api);
    const owner = await setupOwner(client);
    const photo = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#123456' } })
      .png()
      .toBuffer();
    const id = await uploadFile(server.api, owner.access, photo, { filename: 'p.png' });
    // An unfinished upload leaves its temp file.
    const pending = await fetch(`${server.api}/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.access}`, 'Tus-Resumable': '1.0.0', 'Upload-Length': '10' },
    });
    assert.equal(pending.status, 201);
    for (let i = 0; i < 200 && !(await client.get(`/nodes/${id}`, { token: owner.access })).body.has_thumbnail; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    assert.equal((await fs.stat(dataDir)).mode & 0o777, 0o700);
    const modes = await modesUnder(dataDir);
    for (const expected of ['hearth.db', 'keys.json', 'files/blobs', 'files/tmp', 'thumbs']) {
      assert.ok(
        modes.some((m) => m.file === expected),
        `${expected} exists: ${modes.map((m) => m.file).join(', ')}`,
      );
    }
    assert.ok(
      modes.some((m) => m.file.startsWith('files/blobs/') && !m.dir),
      'a content file exists',
    );
    assert.ok(
      modes.some((m) => m.file.startsWith('files/tmp/') && !m.dir),
      'a temp upload exists',
    );
    assert.ok(
      modes.some((m) => m.file.startsWith('thumbs/') && !m.dir),
      'a thumbnail exists',
    );
    for (const { file, dir, mode } of modes) {
      assert.equal(mode & 0o077, 0, `${file} is ${mode.toString(8)}: open to other accounts`);
      assert.equal(mode, dir ? 0o700 : 0o600, `${file} is ${mode.toString(8)}`);
    }
    assert.doesNotMatch(server.output(), /open to other accounts/);
  } finally {
    await server.stop();
    await fs.rm(parent, { recursive: true, force: true });
  }
});

test('an existing data folder open to others is reported at startup with the command that closes it', async () => {
  const dataDir = await makeTempDir('hearth-open-');
  await fs.chmod(dataDir, 0o755);
  const server = await spawnServer(dataDir);
  try {
    const line = server
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((entry) => entry.msg === 'the data folder is open to other accounts on this computer');
    assert.ok(line, server.output());
    assert.equal(line.level, 'warn');
    assert.equal(line.path, dataDir);
    assert.equal(line.mode, '0755');
    assert.equal(line.fix, `chmod -R go-rwx ${dataDir}`);
  } finally {
    await server.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});
