import { Readable } from 'node:stream';
import yauzl from 'yauzl';

export interface ZipEntryRead {
  name: string;
  /** A folder entry (its name ends with "/"). */
  folder: boolean;
  /** 0: stored as it is; 8: deflated. */
  compressionMethod: number;
  data: Buffer;
  modified: Date;
}

/**
 * Every entry of a zip, read with yauzl (strict: it refuses a malformed directory, a bad
 * name, a size that does not match and, as it reads, a CRC-32 that does not).
 */
export function readZip(buffer: Buffer): Promise<ZipEntryRead[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true, decodeStrings: true, validateEntrySizes: true }, (error, zip) => {
      if (error) return reject(error);
      const entries: ZipEntryRead[] = [];
      zip.on('error', reject);
      zip.on('end', () => resolve(entries));
      zip.on('entry', (entry: yauzl.Entry) => {
        const folder = entry.fileName.endsWith('/');
        const base = { name: entry.fileName, folder, compressionMethod: entry.compressionMethod, modified: entry.getLastModDate() };
        if (folder) {
          entries.push({ ...base, data: Buffer.alloc(0) });
          zip.readEntry();
          return;
        }
        zip.openReadStream(entry, (openError, stream) => {
          if (openError) return reject(openError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', reject);
          stream.on('end', () => {
            entries.push({ ...base, data: Buffer.concat(chunks) });
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

/** The entries a zip's central directory lists, given its last bytes and its whole length. */
export function directoryOf(end: Buffer, total: number): Promise<yauzl.Entry[]> {
  const start = total - end.length;
  class TailReader extends yauzl.RandomAccessReader {
    override _readStreamForRange(from: number, to: number) {
      if (from < start) throw new Error(`the directory reaches back to ${from}, before the kept tail at ${start}`);
      return Readable.from([end.subarray(from - start, to - start)]);
    }
  }
  return new Promise((resolve, reject) => {
    yauzl.fromRandomAccessReader(new TailReader(), total, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const entries: yauzl.Entry[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        entries.push(entry);
        zip.readEntry();
      });
      zip.once('end', () => resolve(entries));
      zip.once('error', reject);
      zip.readEntry();
    });
  });
}
