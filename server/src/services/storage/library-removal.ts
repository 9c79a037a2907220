import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../app-error.ts';
import { mountOf } from '../../platform/mounts.ts';
import { contentFileNames } from '../../store/content/content-files.ts';
import { clearLibraryFolder } from '../../store/content/content-stores.ts';
import { emptyExpiredHolding, heldUntil } from '../../store/content/holding.ts';
import { parseMountSpec, type LibraryRow } from '../../store/database/libraries.repo.ts';
import type { ServiceDeps } from '../common/context.ts';
import { LIBRARY_FOLDER, type DriveMounts } from './drive-mounts.ts';

/**
 * Removing a library clears its folder; that may take only what the database knows to be
 * garbage. A content file it has no record of (the database is older than the drive's
 * files) makes the removal wait, like any file still stored there.
 */
export function holdsUnknownContent(store: ServiceDeps['store'], library: LibraryRow): boolean {
  for (const blob of contentFileNames(path.join(library.path, 'blobs'))) {
    if (!store.versions.hasBlob(library.id, blob) && store.garbage.get(library.id, blob) === undefined) return true;
  }
  return false;
}

/**
 * The holding folder keeps what the clean-up took for HOLDING_DAYS, for when the clean-up
 * was wrong: removing the library would take that chance away, so it waits until the last
 * held day is over (the owner is told when).
 */
export async function refuseWhileHolding(library: LibraryRow, now: number): Promise<void> {
  const until = await heldUntil(library.path, now);
  if (until === null) return;
  const day = new Date(until).toISOString().slice(0, 10);
  throw new AppError(
    'library_not_empty',
    `Hearth's clean-up set aside files here that looked unused (in the holding folder) and keeps them until ${day}, in case they are needed after all. This place can be removed from ${day} on.`,
  );
}

/** After a removal: the folder goes back to how it was, and what the server mounted for it is unmounted. */
export async function clearAndRelease(deps: ServiceDeps, mounts: DriveMounts, library: LibraryRow): Promise<void> {
  const spec = parseMountSpec(library);
  const tidy = (step: () => unknown) => tidyStep(deps, library, step);
  await tidy(() => emptyExpiredHolding(library.path, deps.now()));
  await tidy(() => clearLibraryFolder(library.path));
  if (spec?.kind === 'pool') await tidy(() => mounts.releasePool(spec.mount_point));
  for (const member of spec === null ? [] : spec.kind === 'drive' ? [spec.member] : spec.members) {
    await tidy(() => fs.rmdirSync(path.join(member.mount_point, LIBRARY_FOLDER)));
    if (member.mounted_by_server) await tidy(() => unmountUnlessShared(deps, mounts, library.id, member.mount_point));
  }
}

/** The library is forgotten whatever happens here: a folder or a mount left behind holds nothing of it. */
async function tidyStep(deps: ServiceDeps, library: LibraryRow, step: () => unknown): Promise<void> {
  try {
    await step();
  } catch (error) {
    deps.log.warn('a removed library could not be tidied away', { library_id: library.id, error: String(error) });
  }
}

/**
 * Unmounts the drive a folder lives on, unless the system, the data dir or another library
 * (not ejected) lives on it too.
 */
export async function unmountUnlessShared(deps: ServiceDeps, mounts: DriveMounts, libraryId: string, folder: string): Promise<void> {
  const mount = mountOf(folder);
  if (!mount || mount.mountPoint === '/') return;
  const shared =
    mount.mountPoint === mountOf(deps.config.dataDir)?.mountPoint ||
    deps.store.libraries
      .all()
      .some((o) => o.id !== libraryId && o.status !== 'ejected' && mountOf(o.path)?.mountPoint === mount.mountPoint);
  if (shared) return;
  await mounts.unmount(mount);
  mounts.forgetMountPoint(mount.mountPoint);
}
