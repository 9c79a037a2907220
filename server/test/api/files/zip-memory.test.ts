import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { after, before, test } from 'node:test';
import { setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { ApiClient, makeTempDir } from '../../helpers/server.ts';
import { spawnServer, type SpawnedServer } from '../../helpers/spawn.ts';
import { uploadFile } from '../../helpers/upload.ts';
import { directoryOf } from '../../helpers/zip.ts';

/* Issue 23: "zip streaming (memory flat for a 2 GiB selection)". */

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
/** Eight photos of 256 MiB: the same bytes, so the server stores them once (one content file, quick to make). */
const PART = 256 * MiB;
const PARTS = 8;
/** What the server may grow by while it sends 2 GiB: a few of its 1 MiB reads in flight, and garbage not yet collected. */
const MAX_GROWTH = 96 * MiB;
/** How long the reader stops after each 256 MiB: a server that did not wait for it would read on into memory meanwhile. */
const PAUSE_MS = 1_500;

let server: SpawnedServer;
let dataDir: string;
let owner: SignedIn;
let ids: string[];

before(async () => {
  dataDir = await makeTempDir();
  server = await spawnServer(dataDir);
  const client = new ApiClient(server.api);
  owner = await setupOwner(client);
  const bytes = Buffer.alloc(PART, 0x5a);
  ids = [];
  for (let i = 0; i < PARTS; i++) {
    ids.push(await uploadFile(server.api, owner.access, bytes, { filename: `IMG_${1000 + i}.mp4`, chunkSize: 64 * MiB }));
  }
});
after(async () => {
  await server.stop();
  const { rm } = await import('node:fs/promises');
  await rm(dataDir, { recursive: true, force: true });
});

/** Resident memory of a process (Linux /proc). */
function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

test('a 2 GiB zip streams as it is made: read slowly (a pause after each 256 MiB), the server grows by less than 96 MiB, and the zip it sent is whole (Content-Length, ZIP64-ready directory of 8 entries)', async () => {
  const pid = server.process.pid!;
  const ticket = await new ApiClient(server.api).post('/downloads', { node_ids: ids, name: 'Big' }, { token: owner.access });
  assert.equal(ticket.status, 201, JSON.stringify(ticket.body));
  assert.equal(ticket.body.bytes, PART * PARTS);

  const baseline = rssOf(pid);
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 20);
  let received = 0;
  // The last chunks, about a MiB of them: the zip's directory is at its end.
  const tail: Buffer[] = [];
  let tailBytes = 0;
  let length = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      const request = http.get(`${server.url}${ticket.body.url}`, (response) => {
        if (response.statusCode !== 200) return reject(new Error(`status ${response.statusCode}`));
        length = Number(response.headers['content-length']);
        let nextPause = PART;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          tail.push(chunk);
          tailBytes += chunk.length;
          while (tailBytes - tail[0]!.length >= MiB) tailBytes -= tail.shift()!.length;
          if (received >= nextPause) {
            nextPause += PART;
            response.pause();
            setTimeout(() => response.resume(), PAUSE_MS);
          }
        });
        response.once('end', resolve);
        response.once('error', reject);
      });
      request.once('error', reject);
    });
  } finally {
    clearInterval(sampler);
  }

  assert.equal(received, length, 'every byte of the Content-Length arrived');
  assert.ok(received > PART * PARTS, 'the whole 2 GiB and the zip around it');
  const growth = peak - baseline;
  assert.ok(
    growth < MAX_GROWTH,
    `the server grew by ${Math.round(growth / MiB)} MiB (from ${Math.round(baseline / MiB)} to ${Math.round(peak / MiB)} MiB) while sending ${(received / GiB).toFixed(2)} GiB`,
  );

  // The zip's directory is at its end: read from the last MiB alone, as an unzipper finds it.
  const entries = await directoryOf(Buffer.concat(tail), received);
  assert.deepEqual(
    entries.map((e) => [e.fileName, e.uncompressedSize, e.compressionMethod]),
    ids.map((_, i) => [`IMG_${1000 + i}.mp4`, PART, 0]),
  );
  for (let i = 1; i < entries.length; i++) {
    assert.ok(entries[i]!.relativeOffsetOfLocalHeader > entries[i - 1]!.relativeOffsetOfLocalHeader + PART - 1);
  }
});
