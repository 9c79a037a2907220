import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../app-error.ts';
import type { BackupDestinationRow } from '../../store/database/backup.repo.ts';
import type { ServiceDeps } from '../common/context.ts';
import { checkReadableName } from '../common/readable-names.ts';
import { newId } from '../common/secrets.ts';
import type { Retention } from './retention.ts';

/*
 * What a destination may be, and how its row reads: the rules BackupService applies when one is
 * added or changed.
 */

/**
 * An existing folder the server can write to, given as a full path, outside the data folder and
 * every library (a backup beside what it backs up is lost with it), and not already a destination.
 */
export function checkedFolder(deps: ServiceDeps, input: string): string {
  const refuse = (message: string): never => {
    throw new AppError('invalid_destination', message, { field: 'path' });
  };
  if (!path.isAbsolute(input)) refuse('Give the full path of a folder, such as /media/usb-disk/backups.');
  let folder = '';
  try {
    folder = fs.realpathSync(input);
  } catch {
    refuse('That folder does not exist. Is its drive connected?');
  }
  if (!fs.statSync(folder).isDirectory()) refuse('That is a file, not a folder.');
  const real = (p: string) => {
    try {
      return fs.realpathSync(p);
    } catch {
      return path.resolve(p);
    }
  };
  if (isInside(folder, real(deps.config.dataDir)))
    refuse('That folder is inside the Hearth data folder: a backup there is lost with the data. Choose a folder on another drive.');
  for (const library of deps.store.libraries.all()) {
    if (isInside(folder, real(library.path)))
      refuse(`That folder is inside the storage place "${library.name}": choose a folder outside it, on another drive.`);
  }
  if (deps.store.backup.byPath(folder)) refuse('That folder is already a backup destination.');
  const probe = path.join(folder, `.hearth-write-check-${newId()}`);
  try {
    fs.writeFileSync(probe, '');
    fs.rmSync(probe);
  } catch {
    fs.rmSync(probe, { force: true });
    refuse('Hearth cannot write to that folder. Check its permissions, or that the drive is not read-only.');
  }
  return folder;
}

export function retentionOf(row: BackupDestinationRow): Retention {
  return { last: row.keep_last, daily: row.keep_daily, weekly: row.keep_weekly, monthly: row.keep_monthly };
}

export const NOT_S3 = { endpoint: null, region: null, bucket: null, prefix: null, access_key_id: null } as const;

export function checkedName(input: string): string {
  const name = input.trim();
  if (name === '' || [...name].length > 64)
    throw new AppError('invalid_input', 'A destination name is 1 to 64 characters.', { field: 'name' });
  checkReadableName(name, 'name');
  return name;
}

export function parseTime(text: string): { hour: number; minute: number } {
  const [hour, minute] = text.split(':').map(Number) as [number, number];
  return { hour, minute };
}

export function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function isInside(child: string, parent: string): boolean {
  return child === parent || child.startsWith(parent.endsWith(path.sep) ? parent : `${parent}${path.sep}`);
}
