import type { PlaybackFiles } from '../../store/content/playback-files.ts';
import type { PlaybackRow } from '../../store/database/playback.repo.ts';
import type { ServiceDeps } from '../common/context.ts';

/**
 * A library's copies against their rows, at start. No process is making a copy yet, so what
 * is under .making was cut short. A ready row without its file (a database restored from a
 * backup) waits to be made again; a waiting row whose file is in place was renamed just
 * before a crash (a file is renamed only once whole): it is ready. A file no row wants is
 * taken away: a copy is derived from content that stays, never anyone's only data.
 */
export async function checkLibraryCopies(
  deps: ServiceDeps,
  libraryId: string,
  files: PlaybackFiles,
  lost: (row: PlaybackRow) => void,
): Promise<void> {
  const cut = await files.clearUnfinished();
  if (cut > 0) deps.log.info('took away playback copies a stop cut short; they will be made again', { count: cut });
  const { store } = deps;
  for (const row of store.playback.withFilesOn(libraryId)) {
    const size = await files.size(row.blob);
    if (row.state === 'ready' && size === null) lost(row);
    if (row.state === 'waiting' && size !== null) store.playback.ready(libraryId, row.blob, size, deps.now());
  }
  let orphans = 0;
  for await (const blob of files.list()) {
    const row = store.playback.get(libraryId, blob);
    if (row?.state !== 'ready' && row?.state !== 'waiting') {
      await files.remove(blob);
      orphans++;
    }
  }
  if (orphans > 0) deps.log.info('took away playback copies no video needs', { count: orphans });
}
