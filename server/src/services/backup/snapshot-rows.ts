import { AppError } from '../../app-error.ts';
import { shortenName } from '../../contract/names.ts';
import { FUTURE_ALLOWANCE_MS, SAFE_ID } from '../../store/archives/backup-archive.ts';
import type { SnapshotDb, SnapshotNode } from '../../store/database/snapshot-db.ts';
import { withoutSpoofingCharacters } from '../common/readable-names.ts';
import { cleanNodeName } from '../files/node-names.ts';

/**
 * A snapshot's rows are read as input from outside, even from a signed snapshot: an older
 * release let names through that the upload rules now refuse (text-direction overrides), and a
 * snapshot from before signatures may be anyone's work. Each row that becomes a file or folder,
 * or is shown to the owner, goes through these rules first.
 */

/** Said in place of a name that has nothing left once cleaned. */
const NAMELESS = 'Restored item';

/**
 * A name as the upload rules take it (node-names.ts). One they refuse is mended rather than
 * refused, since the file is the family's: `/` and NUL become `_`, controls and text-direction
 * overrides go (`invoice\u202Efdp.exe` is `invoicefdp.exe`), a long one is shortened.
 */
export function restoredName(raw: string): string {
  try {
    return cleanNodeName(raw);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
  }
  let name = withoutSpoofingCharacters(raw.normalize('NFC').replace(/[/\0]/g, '_'));
  if (name.trim() === '' || name === '.' || name === '..') name = NAMELESS;
  return cleanNodeName(shortenName(name));
}

/** Whether a row's ids are ids Hearth makes: a content file's id and library become a path on disk. */
export function idsAreHearths(row: Pick<SnapshotNode, 'id' | 'owner_id' | 'parent_id' | 'library_id' | 'blob'>): boolean {
  return [row.id, row.owner_id, row.parent_id, row.library_id, row.blob].every((id) => id === null || SAFE_ID.test(id));
}

/** An item and everything below it, as a restore takes them: names mended; 409 `backup_damaged` when a row's ids are not Hearth's. */
export function restorableItems(db: SnapshotDb, id: string): SnapshotNode[] {
  const items = db.subtree(id).map((n) => ({ ...n, name: restoredName(n.name) }));
  const odd = items.find((n) => !idsAreHearths(n));
  if (odd)
    throw new AppError(
      'backup_damaged',
      `"${odd.name}" is damaged in this backup: its record is not one Hearth writes. Nothing was restored.`,
    );
  return items;
}

/**
 * A row as the owner is shown it: its name mended, and no date later than the snapshot itself
 * (nothing was changed after the copy was made; a capture date there is a camera's wrong clock
 * or a made-up row, and is left out).
 */
export function trustedRow<T extends SnapshotNode>(row: T, snapshotAt: number): T {
  const latest = snapshotAt + FUTURE_ALLOWANCE_MS;
  return {
    ...row,
    name: restoredName(row.name),
    created_at: Math.min(row.created_at, snapshotAt),
    updated_at: Math.min(row.updated_at, snapshotAt),
    taken_at: row.taken_at !== null && row.taken_at > latest ? null : row.taken_at,
  };
}

/** Each item's place in its owner's files as it was ("Photos/Holiday/beach.jpg"): how a damaged file is named to the owner. */
export function familyPaths(items: SnapshotNode[], topPath: SnapshotNode[]): Map<string, string> {
  const out = new Map<string, string>();
  const top = items[0]!;
  out.set(top.id, topPath.map((n) => n.name).join('/'));
  for (const item of items.slice(1)) out.set(item.id, `${out.get(item.parent_id!)}/${item.name}`);
  return out;
}

/** "Holiday (restored 3 May 2026)", "beach (restored 3 May 2026).jpg": the snapshot's date, as the owner reads it. */
export function besideName(name: string, isFile: boolean, at: number): string {
  const date = new Date(at).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });
  const dot = isFile ? name.lastIndexOf('.') : -1;
  const ext = dot > 0 ? name.slice(dot) : '';
  let base = dot > 0 ? name.slice(0, dot) : name;
  const tail = ` (restored ${date})${ext}`;
  while (Buffer.byteLength(base + tail) > 255 && base.length > 1) base = [...base].slice(0, -1).join('');
  return base + tail;
}
