import type { Logger } from '../../log.ts';
import { openDatabase, type Db, type EngineChoice } from '../../store/database/db.ts';
import { storageFaultOf } from '../../store/common/storage-faults.ts';
import type { StorageHealth } from './storage-health.ts';

/**
 * Opens the database on a disk that may be full or read-only. The reserve is given back
 * first (StorageHealth.beforeOpen); when SQLite still cannot extend its shared-memory file,
 * the database is opened without it and the server starts anyway: reads work, and writes
 * answer 507 until space is freed. Only a database that cannot be read at all stops the
 * start, with a sentence saying what to do instead of a stack of SQLite's.
 */
export function openDatabaseOnDisk(file: string, engine: EngineChoice, storage: StorageHealth, log: Logger): Db {
  const { sharedMemory } = storage.beforeOpen();
  if (!sharedMemory)
    log.warn(
      "the data folder has no room for the database's shared-memory file: opened without it until the next start (other programs cannot open the database meanwhile)",
    );
  try {
    return openDatabase(file, engine, { sharedMemory });
  } catch (error) {
    if (!sharedMemory || storageFaultOf(error) === null) throw explain(error, storage);
    const fault = storage.noteFailure(error);
    if (!fault) throw error;
    log.warn('the database could not open its shared-memory file on this disk: opened without it', { error: String(error) });
    try {
      return openDatabase(file, engine, { sharedMemory: false });
    } catch (again) {
      throw explain(again, storage);
    }
  }
}

function explain(error: unknown, storage: StorageHealth): unknown {
  const fault = storage.classify(error);
  if (fault === 'full') {
    return new Error(
      `The disk holding the data folder (${storage.dataDir}) is full, and the database could not be opened or upgraded there. ` +
        'Free some space on that disk (empty the system trash, move big files elsewhere), then start Hearth again. Nothing was changed.',
      { cause: error },
    );
  }
  if (fault === 'read_only') {
    return new Error(
      `The disk holding the data folder (${storage.dataDir}) is read-only (the system makes a disk read-only after an error), and the database could not be opened there. ` +
        'Check the disk (on Linux: its kernel log, then fsck), then start Hearth again. Nothing was changed.',
      { cause: error },
    );
  }
  return error;
}
