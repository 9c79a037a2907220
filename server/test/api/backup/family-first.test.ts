import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { addFolderDestination, destinationFolder, finishedRun, startRun } from '../../helpers/backup.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

/** A request the server is answering for as long as the test likes: its JSON body arrives only on release(). */
function heldRequest(url: string, token: string): { release(): Promise<number> } {
  const body = JSON.stringify({ name: 'Held', parent_id: null });
  const request = http.request(`${url}/api/v1/nodes/folder`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  });
  const answered = new Promise<number>((resolve, reject) => {
    request.once('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    request.once('error', reject);
  });
  request.write(body.slice(0, 5));
  return {
    async release() {
      request.end(body.slice(5));
      return answered;
    },
  };
}

describe('a backup takes its turn behind the family: it slows while requests are being answered, and never stops', () => {
  let t: TestServer;
  let owner: SignedIn;
  const folders: string[] = [];

  before(async () => {
    t = await startTestServer();
    owner = await setupOwner(t.client);
  });
  after(async () => {
    await t.close();
    for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
  });

  test('while a request is under way a run copies at most a chunk at a time and is not done; once it is answered, the run finishes whole', async () => {
    const size = 24 * 1024 * 1024;
    await uploadFile(t.api, owner.access, crypto.randomBytes(size), { filename: 'film.mp4' });
    const folder = destinationFolder();
    folders.push(folder);
    const dest = await addFolderDestination(t.client, owner.access, folder);

    const held = heldRequest(t.url, owner.access);
    // The server has the request's headers once its body parser waits for the rest: give it a moment.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const run = await startRun(t.client, owner.access, dest.id);
    // 24 chunks of 1 MiB, each waiting up to 200 ms behind the held request: at least 4.8 s, where
    // the same copy alone takes a fraction of a second.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const during = (await t.client.get(`/admin/backup/runs/${run.id}`, { token: owner.access })).body;
    assert.equal(during.state, 'running', 'the run waits its turn');
    assert.ok(during.bytes_copied < size, `copied ${during.bytes_copied} of ${size} while the family was being answered`);

    assert.equal(await held.release(), 201, 'the held request is answered as usual');
    const done = await finishedRun(t.client, owner.access, run.id);
    assert.equal(done.state, 'succeeded', JSON.stringify(done));
    assert.ok(done.bytes >= size);
  });
});
