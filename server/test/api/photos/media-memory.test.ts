import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { mediaFixture } from '../../helpers/fixtures.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

/* Issue 12, finding 5: a fake HEIC cannot take a media worker's memory. */

const MB = 1024 * 1024;

let t: TestServer;
let who: SignedIn;

before(async () => {
  // Without heif-convert on PATH the worker decodes HEIC itself (WebAssembly): the case where
  // the file's bytes land in the worker's own memory.
  const saved = process.env.PATH;
  process.env.PATH = '/nonexistent-no-tools-here';
  try {
    t = await startTestServer({ mediaConcurrency: 1, mediaWorkersAtStart: true });
  } finally {
    process.env.PATH = saved;
  }
  who = await setupOwner(t.client);
});
after(() => t.close());

/** The media workers among this process's children (Linux /proc). */
function workerPids(): number[] {
  return readdirSync('/proc/self/task')
    .flatMap((tid) => readFileSync(`/proc/self/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('worker-main');
      } catch {
        return false;
      }
    });
}

/** Resident and peak resident memory of a process, from /proc/<pid>/status. */
function memoryOf(pid: number): { rss: number; peak: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
    return { rss: kb('VmRSS'), peak: kb('VmHWM') };
  } catch {
    return null;
  }
}

test('a 160 MB file that starts like a HEIC is refused by its size before decoding: the worker stays small (RSS from /proc) and the queue goes on', async () => {
  for (let i = 0; i < 100 && workerPids().length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  const [worker] = workerPids();
  assert.ok(worker, 'a media worker is running');
  const before = memoryOf(worker)!;

  const fake = Buffer.concat([await mediaFixture('quadrants-640x480.heic'), Buffer.alloc(160 * MB, 0x5a)]);
  const id = await uploadFile(t.api, who.access, fake, { filename: 'IMG_9999.HEIC', chunkSize: 64 * MB });
  let sampled = 0;
  const sampling = setInterval(() => (sampled = Math.max(sampled, memoryOf(worker)?.rss ?? 0)), 5);
  try {
    await t.server.mediaIdle();
  } finally {
    clearInterval(sampling);
  }
  const after = memoryOf(worker);
  assert.ok(after, 'the worker survived');
  const peak = Math.max(after.peak, sampled);
  assert.ok(peak < 256 * MB, `the worker grew from ${Math.round(before.rss / MB)} MB to a peak of ${Math.round(peak / MB)} MB`);

  const node = (await t.client.get(`/nodes/${id}`, { token: who.access })).body;
  assert.equal(node.mime_type, 'image/heic');
  assert.equal(node.has_thumbnail, false);
  // A real photo after it is processed as usual.
  const real = await uploadFile(t.api, who.access, await mediaFixture('quadrants-640x480.heic'), { filename: 'real.heic' });
  await t.server.mediaIdle();
  assert.equal((await t.client.get(`/nodes/${real}`, { token: who.access })).body.has_thumbnail, true);
});

test('the media workers run with a JavaScript heap limit', () => {
  const [worker] = workerPids();
  assert.ok(worker);
  const argv = readFileSync(`/proc/${worker}/cmdline`, 'utf8').split('\0');
  assert.ok(
    argv.some((arg) => /^--max-old-space-size=\d+$/.test(arg)),
    argv.join(' '),
  );
});
