import { createRequire } from 'node:module';
import zlib from 'node:zlib';

type Crc32 = (data: Buffer | string, previous?: number | Buffer) => number;

/**
 * yazl takes each file's CRC-32 from its copy of buffer-crc32, a lookup table in JavaScript:
 * about 250-300 MB/s on this machine, so a zip streamed at a third of a plain download and
 * cost 2.7x its CPU (`npm run bench -- web`). Node's own zlib.crc32 (Node 20.15+ and 22.2+) is
 * native and gives the same numbers several times faster: that copy is handed it, for yazl
 * alone (nothing else loads that copy). Where Node lacks it, or a later yazl stops using
 * buffer-crc32, zips stay correct and only go slower; a unit test says which is in force.
 */
export function useNativeCrc32ForYazl(): boolean {
  if (typeof zlib.crc32 !== 'function') return false;
  const fromYazl = createRequire(createRequire(import.meta.url).resolve('yazl'));
  const crc32 = fromYazl('buffer-crc32') as { unsigned: Crc32 };
  const javascript = crc32.unsigned;
  crc32.unsigned = (data, previous) => (typeof previous === 'object' ? javascript(data, previous) : zlib.crc32(data, previous ?? 0));
  return true;
}
