/**
 * A zip opens each file only when its writer reaches it, at the place its plan found it: two
 * files with the same bytes are merged (one of them taken away) only once no zip is being sent,
 * so a zip asked for just after an upload arrives whole, and the files become one after it.
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';
import { readZip } from '../../helpers/zip.ts';

let t: TestServer;
let owner: SignedIn;

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
});
after(() => t.close());

/** Content files on disk holding exactly these bytes. */
function filesHolding(data: Buffer): number {
  const base = path.join(t.dataDir, 'files', 'blobs');
  return fs
    .readdirSync(base, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .filter((file) => fs.statSync(file).size === data.length && fs.readFileSync(file).equals(data)).length;
}

test('the same film uploaded twice and zipped at once: the zip, read slowly while merges are due, holds both whole; then the two files become one', async () => {
  // Larger than what the sockets buffer between a paused reader and the server: the second file is not opened yet at the pause.
  const film = crypto.randomBytes(24 * 1024 * 1024);
  const first = await uploadFile(t.api, owner.access, film, { filename: 'wedding.mp4' });
  const second = await uploadFile(t.api, owner.access, film, { filename: 'wedding copy.mp4' });
  const ticket = await t.client.post('/downloads', { node_ids: [first, second], name: 'Wedding' }, { token: owner.access });
  assert.equal(ticket.status, 201, JSON.stringify(ticket.body));

  const zip = await new Promise<Buffer>((resolve, reject) => {
    http
      .get(`${t.url}${ticket.body.url}`, (response) => {
        const chunks: Buffer[] = [];
        response.once('data', (chunk: Buffer) => {
          chunks.push(chunk);
          response.pause();
          // Meanwhile every merge that may happen happens.
          void t.server.contentIdle().then(() => {
            response.on('data', (more: Buffer) => chunks.push(more));
            response.resume();
          }, reject);
        });
        response.once('end', () => resolve(Buffer.concat(chunks)));
        response.once('error', reject);
      })
      .once('error', reject);
  });
  const entries = await readZip(zip);
  assert.deepEqual(
    entries.map((e) => [e.name, e.data.equals(film)]),
    [
      ['wedding.mp4', true],
      ['wedding copy.mp4', true],
    ],
  );

  await t.server.contentIdle();
  assert.equal(filesHolding(film), 1, 'once the zip is sent, the two files with the same bytes are one');
});
