import fs from 'node:fs';
import path from 'node:path';

/**
 * A PATH with every program of this machine except those named: a folder of links to them,
 * made in `dir`. A test of a PC without a tool (mkfs.exfat) that this machine has.
 */
export function pathWithout(dir: string, left: readonly string[], from: string = process.env.PATH ?? ''): string {
  fs.mkdirSync(dir);
  for (const folder of from.split(path.delimiter)) {
    let names: string[];
    try {
      names = fs.readdirSync(folder);
    } catch {
      continue;
    }
    for (const name of names) {
      // The first folder on PATH wins, as it does for a lookup.
      if (left.includes(name) || fs.existsSync(path.join(dir, name))) continue;
      fs.symlinkSync(path.join(folder, name), path.join(dir, name));
    }
  }
  return dir;
}
