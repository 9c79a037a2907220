import { MAX_NAME_BYTES, nameBytes, shortenName } from '../../contract/names.ts';
import { AppError } from '../../app-error.ts';
import { checkReadableName } from '../common/readable-names.ts';

/**
 * A node name as stored: NFC, 1 to 255 bytes of UTF-8, no `/` or NUL, not `.` or `..`, no
 * control character or text-direction override.
 * Names never become paths on disk (content files are named by id), so these rules are about
 * what every client and every file system a download lands on can hold.
 */
export function cleanNodeName(raw: string, field = 'name'): string {
  const name = raw.normalize('NFC');
  const invalid = (message: string) => new AppError('invalid_name', message, { field });
  if (name.trim() === '') throw invalid('A name cannot be empty.');
  // Its own code: "too long" is the one reason a person can fix by shortening, and the app offers to.
  if (nameBytes(name) > MAX_NAME_BYTES) throw new AppError('name_too_long', undefined, { field });
  if (name.includes('/') || name.includes('\0')) throw invalid('A name cannot contain "/" or NUL.');
  if (name === '.' || name === '..') throw invalid('"." and ".." are not names.');
  // `invoice\u202Efdp.exe` would show as "invoiceexe.pdf".
  checkReadableName(name, field);
  return name;
}

/** Siblings are unique ignoring case. */
export function nameKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

/** Lower case without accents: "Élise" and "elise" match a search for "eli". */
export function searchKey(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * A key whose plain byte order is natural, locale-aware name order: accents fold, case
 * folds, and each run of digits is prefixed by its length so "file 2" sorts before
 * "file 10". Stored in the row so a sorted page is one index scan.
 */
export function naturalSortKey(name: string): string {
  return searchKey(name).replace(/\d+/g, (digits) => {
    const trimmed = digits.replace(/^0+(?=\d)/, '');
    return String.fromCharCode(0x30 + Math.min(trimmed.length, 0x4f)) + trimmed;
  });
}

/**
 * `photo.jpg` -> `photo (1).jpg`, `photo (2).jpg`, ...; folders keep dots in their names. A
 * name near the limit gives up the end of its base so that the number still fits.
 */
export function numberedName(name: string, n: number, isFile: boolean): string {
  const dot = isFile ? name.lastIndexOf('.') : -1;
  const [base, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  const suffix = ` (${n})${ext}`;
  return `${shortenName(base, MAX_NAME_BYTES - nameBytes(suffix))}${suffix}`;
}

export const NODE_COLORS = ['blue', 'green', 'orange', 'red', 'purple', 'teal', 'neutral'] as const;
export type NodeColor = (typeof NODE_COLORS)[number];
