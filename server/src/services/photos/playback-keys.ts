import type { PlaybackRow } from '../../store/database/playback.repo.ts';

/** A playback copy's key: its content file, on its library (copies are kept per content, not per file). */
export const keyOf = (row: Pick<PlaybackRow, 'library_id' | 'blob'>) => `${row.library_id}/${row.blob}`;

/** Rows of the playback queue read at a time. */
export const BATCH = 200;
