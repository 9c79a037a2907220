import { AppError } from '../../app-error.ts';
import { ArchiveFileDamaged, BackupArchive, SourceUnreadable, type ManifestFile } from '../../store/archives/backup-archive.ts';
import type { ContentRef } from '../../store/database/backup.repo.ts';
import type { ContentStores } from '../../store/content/content-stores.ts';
import { eachAtOnce } from './each-at-once.ts';
import type { RunCounts } from './run-counts.ts';

/*
 * A backup's content files: what the destination holds already (skipped without reading either
 * side), what must be copied, and the copy of each, with the run's totals kept true as it goes.
 */

/**
 * The stored size of every content file the snapshot lists that the destination holds. A bucket
 * answers in one listing (a thousand names a request); a folder is asked file by file (one stat
 * each, with its safety checks), `filesAtOnce` at a time.
 */
export async function whatIsThere(
  archive: BackupArchive,
  refs: () => Iterable<ContentRef>,
  filesAtOnce: number,
  signal: AbortSignal,
): Promise<Map<string, number>> {
  const listed = await archive.contentSizes();
  if (listed !== null) return listed;
  const there = new Map<string, number>();
  await eachAtOnce(refs(), filesAtOnce, async (ref) => {
    signal.throwIfAborted();
    const relative = archive.contentPath(ref.library_id, ref.blob);
    const size = await archive.sizeOf(relative);
    if (size !== null) there.set(relative, size);
  });
  return there;
}

/** Held already, as a finished snapshot lists it: skipped without reading either side. */
function alreadyThere(listed: ManifestFile | undefined, stored: number | undefined, ref: ContentRef): listed is ManifestFile {
  return stored !== undefined && listed !== undefined && (listed.stored_size ?? listed.size) === stored && listed.size === ref.size;
}

/** The content's files and bytes, and the bytes to copy: all but what alreadyThere skips. */
export function countContent(
  archive: BackupArchive,
  known: Map<string, ManifestFile>,
  there: Map<string, number>,
  refs: Iterable<ContentRef>,
): { files: number; bytes: number; toCopy: number } {
  const out = { files: 0, bytes: 0, toCopy: 0 };
  for (const ref of refs) {
    const relative = archive.contentPath(ref.library_id, ref.blob);
    out.files += 1;
    out.bytes += ref.size;
    if (!alreadyThere(known.get(relative), there.get(relative), ref)) out.toCopy += ref.size;
  }
  return out;
}

/** A file counted at `planned` bytes turned out `actual`: the totals say what is true. */
export function settle(counts: RunCounts, planned: number, actual: number): void {
  counts.bytes_total! += actual - planned;
  counts.bytes_to_copy! += actual - planned;
}

/** A content file in the archive: found there already, or copied now. Null when the server cannot give it. */
export async function contentFile(
  archive: BackupArchive,
  known: Map<string, ManifestFile>,
  there: Map<string, number>,
  content: ContentStores,
  relative: string,
  ref: ContentRef,
  counts: RunCounts,
  copied: (n: number) => void,
  signal: AbortSignal,
  pace: ((signal: AbortSignal) => Promise<void>) | undefined,
): Promise<ManifestFile | null> {
  await pace?.(signal);
  const stored = there.get(relative);
  const listed = known.get(relative);
  if (alreadyThere(listed, stored, ref)) return listed;
  // Not copied after all: neither the snapshot nor the bytes to copy count it.
  const dropped = (copiedOfIt: number) => {
    counts.files_total! -= 1;
    counts.bytes_total! -= ref.size;
    counts.bytes_to_copy! -= ref.size - copiedOfIt;
  };
  if (stored !== undefined && (archive.encrypted || stored === ref.size) && ref.sha256 !== null) {
    // Left by a run that was cut before its manifest: kept if it is whole (and, encrypted, decrypts).
    const found = await archive.hash({ path: relative, size: ref.size }, signal).catch((error: unknown) => {
      if (error instanceof ArchiveFileDamaged) return null;
      throw error;
    });
    if (found && found.sha256 === ref.sha256 && found.size === ref.size) {
      counts.bytes_to_copy! -= ref.size;
      const { size, sha256, headerMac } = found;
      return {
        path: relative,
        size,
        sha256,
        ...(archive.encrypted && { stored_size: stored }),
        ...(headerMac && { header_mac: headerMac }),
      };
    }
  }
  let source;
  try {
    source = await content.of(ref.library_id).open(ref.blob);
  } catch (error) {
    dropped(0);
    counts.problems.push({
      path: relative,
      reason: error instanceof AppError ? error.message : 'The file could not be read on the server.',
    });
    return null;
  }
  let copiedOfIt = 0;
  try {
    const written = await archive.write(source, relative, {
      signal,
      onBytes: (n) => {
        copiedOfIt += n;
        copied(n);
      },
      ...(pace && { pace: () => pace(signal) }),
    });
    settle(counts, ref.size, written.size);
    if (ref.sha256 !== null && written.sha256 !== ref.sha256) {
      counts.problems.push({
        path: relative,
        reason: 'The file on the server no longer matches the checksum recorded when it was uploaded.',
      });
    }
    return { path: relative, ...written };
  } catch (error) {
    if (!(error instanceof SourceUnreadable)) throw error;
    dropped(copiedOfIt);
    counts.problems.push({ path: relative, reason: 'The file could not be read on the server.' });
    return null;
  } finally {
    await source.close();
  }
}

/** Every file the finished snapshots list, by path: what a new snapshot need not copy again. */
export async function knownFiles(archive: BackupArchive): Promise<Map<string, ManifestFile>> {
  const known = new Map<string, ManifestFile>();
  for (const snapshot of await archive.snapshots()) {
    const manifest = await archive.manifest(snapshot.id);
    for (const file of manifest?.files ?? []) known.set(file.path, file);
  }
  return known;
}
