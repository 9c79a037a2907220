import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../app-error.ts';
import type { ServiceDeps } from '../common/context.ts';
import { checkReadableName } from '../common/readable-names.ts';

export function checkedName(input: string): string {
  const name = input.trim();
  if (name === '' || [...name].length > 64) throw new AppError('invalid_input', 'A library name is 1 to 64 characters.', { field: 'name' });
  checkReadableName(name, 'name');
  return name;
}

/** A real, writable directory under a mounts root or the data dir (symlinks resolved first). */
export function checkedPath(config: ServiceDeps['config'], input: string): string {
  let folder: string;
  try {
    folder = fs.realpathSync(input);
  } catch {
    throw new AppError('invalid_library_path', 'That folder does not exist.', { field: 'path' });
  }
  const roots = [...config.mountsRoots, config.dataDir].map((r) => {
    try {
      return fs.realpathSync(r);
    } catch {
      return path.resolve(r);
    }
  });
  if (!roots.some((root) => folder.startsWith(root.endsWith('/') ? root : `${root}/`))) {
    throw new AppError('invalid_library_path', undefined, { field: 'path' });
  }
  try {
    if (!fs.statSync(folder).isDirectory()) throw new Error('not a directory');
    fs.accessSync(folder, fs.constants.W_OK);
  } catch {
    throw new AppError('invalid_library_path', 'The folder must be a directory the server can write to.', { field: 'path' });
  }
  return folder;
}

export function overlaps(a: string, b: string): boolean {
  const inside = (x: string, y: string) => x === y || x.startsWith(y.endsWith('/') ? y : `${y}/`);
  return inside(a, b) || inside(b, a);
}
