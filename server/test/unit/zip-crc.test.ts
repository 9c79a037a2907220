import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import zlib from 'node:zlib';
import yazl from 'yazl';
import { useNativeCrc32ForYazl } from '../../src/http/zip-crc.ts';
import { readZip } from '../helpers/zip.ts';

test("yazl's CRC-32 is Node's native one where Node has it (a zip at a third of a download's speed otherwise), and zips stay correct", async () => {
  const crc32 = createRequire(createRequire(import.meta.url).resolve('yazl'))('buffer-crc32') as {
    unsigned: (data: Buffer, previous?: number) => number;
  };
  const javascript = crc32.unsigned;
  const data = crypto.randomBytes(100_000);
  const expected = javascript(data);
  assert.equal(useNativeCrc32ForYazl(), typeof zlib.crc32 === 'function');
  if (typeof zlib.crc32 === 'function') assert.notEqual(crc32.unsigned, javascript, 'yazl uses the native CRC-32');
  // The same numbers, whole and in parts, as yazl feeds a stream to it.
  assert.equal(crc32.unsigned(data), expected);
  assert.equal(crc32.unsigned(data.subarray(60_000), crc32.unsigned(data.subarray(0, 60_000))), expected);

  const zip = new yazl.ZipFile();
  zip.addReadStreamLazy('a.bin', { size: data.length, compress: false }, (done) =>
    done(null, Readable.from([data.subarray(0, 1000), data.subarray(1000)])),
  );
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  const [entry] = await readZip(Buffer.concat(chunks));
  assert.ok(entry!.data.equals(data), 'yauzl checked its CRC-32 as it read it');
});
