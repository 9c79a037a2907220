import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { makeZip } from '../../src/http/send-zip.ts';
import type { ZipEntry } from '../../src/services/files/zip-downloads.ts';
import { directoryOf, readZip } from '../helpers/zip.ts';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/** `size` bytes of one repeated MiB, made as they are read: nothing is stored for the test. */
function repeated(size: number, fill: number): () => Readable {
  const chunk = Buffer.alloc(MiB, fill);
  return () =>
    Readable.from(
      (function* () {
        for (let left = size; left > 0; left -= MiB) yield left >= MiB ? chunk : chunk.subarray(0, left);
      })(),
    );
}

test('past 4 GiB the zip is ZIP64: 4.25 GiB of entries and a small one after them are listed with their real sizes and offsets, in exactly the length told ahead', async () => {
  const part = 256 * MiB;
  const entries: ZipEntry[] = Array.from({ length: 17 }, (_, i) => ({
    kind: 'file',
    path: `VID_${i}.mp4`,
    modifiedAt: Date.UTC(2024, 7, 3),
    size: part,
    open: repeated(part, i),
  }));
  entries.push({ kind: 'folder', path: 'after/', modifiedAt: Date.UTC(2024, 7, 3) });
  entries.push({
    kind: 'file',
    path: 'after/note.txt',
    modifiedAt: Date.UTC(2024, 7, 3),
    size: 5,
    open: () => Readable.from([Buffer.from('hello')]),
  });
  const zip = makeZip({ entries });
  assert.ok(zip.length > 4.25 * GiB, `told ahead: ${zip.length}`);

  let received = 0;
  const tail: Buffer[] = [];
  let tailBytes = 0;
  for await (const chunk of zip.stream as AsyncIterable<Buffer>) {
    received += chunk.length;
    tail.push(chunk);
    tailBytes += chunk.length;
    while (tailBytes - tail[0]!.length >= MiB) tailBytes -= tail.shift()!.length;
  }
  assert.equal(received, zip.length);

  const listed = await directoryOf(Buffer.concat(tail), received);
  assert.deepEqual(
    listed.map((e) => [e.fileName, e.uncompressedSize, e.compressedSize]),
    [...entries.map((e) => [e.path, e.kind === 'file' ? e.size : 0, e.kind === 'file' ? e.size : 0])],
  );
  assert.ok(listed.at(-1)!.relativeOffsetOfLocalHeader > 4 * GiB, 'the last entry starts past 4 GiB');
  assert.ok(listed.every((e) => e.compressionMethod === 0));
});

test('a small zip reads back whole: folders, files, UTF-8 names and times', async () => {
  const when = Date.UTC(2024, 7, 3, 18, 59, 0);
  const zip = makeZip({
    entries: [
      { kind: 'folder', path: 'Été/', modifiedAt: when },
      { kind: 'file', path: 'Été/東京.txt', modifiedAt: when, size: 3, open: () => Readable.from([Buffer.from('abc')]) },
      { kind: 'file', path: 'empty.txt', modifiedAt: when, size: 0, open: () => Readable.from([]) },
    ],
  });
  const chunks: Buffer[] = [];
  for await (const chunk of zip.stream as AsyncIterable<Buffer>) chunks.push(chunk);
  const all = Buffer.concat(chunks);
  assert.equal(all.length, zip.length);
  const read = await readZip(all);
  assert.deepEqual(
    read.map((e) => [e.name, e.folder, e.data.toString()]),
    [
      ['Été/', true, ''],
      ['Été/東京.txt', false, 'abc'],
      ['empty.txt', false, ''],
    ],
  );
  // yauzl reads the DOS time in this machine's zone, as the zip was written in it.
  assert.equal(read[1]!.modified.getTime(), when);
});
