/**
 * The names Hearth gives things in a backup archive, on a folder or in a bucket. A destination
 * is someone else's disk (a USB disk lent for a minute, a shared NAS folder, a drive handed over
 * "with our old backup on it"): whatever else is there is theirs. A clean-up removes only what
 * these names say Hearth made, and a name asked for (read from a manifest, which a tampered
 * backup writes) never leads out of the archive.
 */

/** An id: a library, a shard, a content file, a snapshot. Letters, digits, - and _: never a dot, a space or "..". */
export const ID_NAME = /^[A-Za-z0-9_-]{1,128}$/;

/** A snapshot: the time it began, in UTC, and random hex (20261125T031500Z-4f2a9c). */
export const SNAPSHOT_ID = /^\d{8}T\d{6}Z-[0-9a-f]{6,32}$/;

/** A file of a snapshot (hearth.db, keys.json, manifest.json): lowercase, one extension. */
export const SNAPSHOT_FILE = /^[a-z][a-z0-9_-]{0,63}\.[a-z0-9]{1,8}$/;

/** A file on its way into a folder archive: random hex in tmp/. */
export const PART_FILE = /^[0-9a-f]{16}\.part$/;

/** How deep content goes under content/ (library, shard, file today); a walk never goes further. */
export const CONTENT_DEPTH = 4;

/** One part of a name Hearth may be asked for: no separator, never "." or "..". */
const SAFE_PART = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;

/** The parts of a relative name (with `/`), or null when one could lead elsewhere ("..", "", "\", ":"). */
export function archiveParts(relative: string): string[] | null {
  const parts = relative.split('/');
  return parts.length > 0 && parts.length <= 8 && parts.every((part) => SAFE_PART.test(part)) ? parts : null;
}

/** Whether `relative` is a content file as Hearth names them: content/<id>/…/<id>, id folders all the way. */
export function isContentFile(relative: string): boolean {
  const parts = relative.split('/');
  return parts[0] === 'content' && parts.length >= 3 && parts.length <= CONTENT_DEPTH + 1 && parts.slice(1).every((p) => ID_NAME.test(p));
}

/** Whether `relative` is a file of the snapshot `id` as Hearth names them: snapshots/<id>/<file>. */
export function isSnapshotFile(relative: string, id: string): boolean {
  const parts = relative.split('/');
  return parts.length === 3 && parts[0] === 'snapshots' && parts[1] === id && SNAPSHOT_FILE.test(parts[2]!);
}

/**
 * A relative name as the owner may read it: a part that is not a plain name (someone else's,
 * which may hold control characters or a right-to-left mark) is shown as "…".
 */
export function shownName(relative: string): string {
  return relative
    .split('/')
    .map((part) => (SAFE_PART.test(part) ? part : '…'))
    .join('/');
}
