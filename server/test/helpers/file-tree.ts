import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Everything under a folder, never following a link: each entry's kind and, for a file, its
 * bytes' SHA-256 and its inode (a file renamed over is another file); for a link, where it
 * points. Two reads of an untouched folder are deep-equal.
 */
export function treeOf(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (folder: string, prefix: string) => {
    for (const name of fs.readdirSync(folder).sort()) {
      const full = path.join(folder, name);
      const relative = `${prefix}${name}`;
      const stat = fs.lstatSync(full);
      if (stat.isSymbolicLink()) out[relative] = `link -> ${fs.readlinkSync(full)}`;
      else if (stat.isDirectory()) {
        out[relative] = 'folder';
        walk(full, `${relative}/`);
      } else if (stat.isFile())
        out[relative] = `file ${stat.ino} ${crypto.createHash('sha256').update(fs.readFileSync(full)).digest('hex')}`;
      else out[relative] = 'other';
    }
  };
  walk(root, '');
  return out;
}

/**
 * A folder standing for someone's home folder, outside every backup: a few of the family's
 * files, and names that look like Hearth's (a snapshot id, a `.part` file, id-named folders and
 * files) for a clean-up that followed a link to find.
 */
export function homeFolder(): string {
  const home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-home-')));
  const put = (relative: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(home, relative)), { recursive: true });
    fs.writeFileSync(path.join(home, relative), text);
  };
  put('letter.txt', 'Dear family');
  put('Photos/2024/beach.jpg', 'not really a jpeg, but precious');
  put('20250101T030000Z-abcdef/notes', 'a folder named like a snapshot');
  put('0123456789abcdef.part', 'a file named like a temp file');
  put('internal/ab/01JD5ZZZZZZZZZZZZZZZZZZZab', 'a file named like content');
  return home;
}
