/**
 * A pipe (or a device) planted in a backup folder where Hearth expects one of its files never
 * hangs a run: reading a pipe waits for a writer that never comes, and the 03:00 run would hold
 * the one place for a run forever. The run stops at once with destination_unsafe, in words.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { addFolderDestination, backUp, blobHolding, destinationFolder } from '../../helpers/backup.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

describe('a pipe where a backup file should be: the run stops at once and says why, never waits on it', () => {
  let t: TestServer;
  let owner: SignedIn;
  const temps: string[] = [];
  const pipes: string[] = [];

  before(async () => {
    t = await startTestServer();
    owner = await setupOwner(t.client);
    await uploadFile(t.api, owner.access, crypto.randomBytes(20_000), { filename: 'first.jpg' });
  });
  after(async () => {
    // A run that opened a pipe (code that follows it) is let go, so the server can stop.
    for (const pipe of pipes) {
      try {
        fs.closeSync(fs.openSync(pipe, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));
      } catch {
        // Nobody reads it: nothing to let go.
      }
    }
    await t.close();
    for (const made of temps) fs.rmSync(made, { recursive: true, force: true });
  });

  function plantPipe(file: string): void {
    fs.rmSync(file, { force: true });
    fs.mkdirSync(path.dirname(file), { recursive: true });
    execFileSync('mkfifo', [file]);
    pipes.push(file);
  }

  function refused(run: any, where: string): void {
    assert.equal(run.state, 'failed', JSON.stringify(run));
    assert.equal(run.error_code, 'destination_unsafe');
    assert.ok(run.error.includes(`${where} is not an ordinary file (a pipe or a device)`), run.error);
  }

  test("a pipe in place of a finished snapshot's manifest", { timeout: 120_000 }, async () => {
    const folder = destinationFolder();
    temps.push(folder);
    const dest = await addFolderDestination(t.client, owner.access, folder);
    const first = await backUp(t.client, owner.access, dest.id);
    assert.equal(first.state, 'succeeded', JSON.stringify(first));
    const manifest = `snapshots/${first.snapshot_id}/manifest.json`;
    plantPipe(path.join(folder, 'hearth-backup', manifest));
    refused(await backUp(t.client, owner.access, dest.id), `hearth-backup/${manifest}`);
    refused(await backUp(t.client, owner.access, dest.id, 'verify'), `hearth-backup/${manifest}`);
  });

  test(
    'a pipe where a new photo goes, in an encrypted folder (which reads a file it finds there to see if it is whole)',
    { timeout: 120_000 },
    async () => {
      const photo = crypto.randomBytes(30_000);
      await uploadFile(t.api, owner.access, photo, { filename: 'second.jpg' });
      const blob = blobHolding(t.dataDir, photo);
      const relative = `content/internal/${path.basename(path.dirname(blob))}/${path.basename(blob)}`;
      const folder = destinationFolder();
      temps.push(folder);
      const dest = await addFolderDestination(t.client, owner.access, folder, { encrypt: true });
      plantPipe(path.join(folder, 'hearth-backup', relative));
      refused(await backUp(t.client, owner.access, dest.id), `hearth-backup/${relative}`);
    },
  );
});
