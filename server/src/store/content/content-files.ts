import fs from 'node:fs';
import path from 'node:path';

/**
 * File names under `blobs/<shard>/`, one at a time, without listing a million files at once.
 * Entry types are not trusted (a file system may not report them): a shard is whatever opens
 * as a folder, a file whatever is not one.
 */
export function* contentFileNames(blobsDir: string): Generator<string> {
  let shards: fs.Dir;
  try {
    shards = fs.opendirSync(blobsDir);
  } catch {
    return;
  }
  try {
    for (let shard = shards.readSync(); shard !== null; shard = shards.readSync()) {
      let files: fs.Dir;
      try {
        files = fs.opendirSync(path.join(blobsDir, shard.name));
      } catch {
        continue;
      }
      try {
        for (let entry = files.readSync(); entry !== null; entry = files.readSync()) if (!entry.isDirectory()) yield entry.name;
      } finally {
        files.closeSync();
      }
    }
  } finally {
    shards.closeSync();
  }
}
