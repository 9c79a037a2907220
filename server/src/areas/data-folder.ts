import type { ServerConfig } from '../config.ts';
import type { Area, Started } from '../lifecycle.ts';
import type { Logger } from '../log.ts';
import { newId } from '../services/common/secrets.ts';
import { StorageHealth } from '../services/storage/storage-health.ts';
import { openDatabaseOnDisk } from '../services/storage/storage-start.ts';
import { openDataDir, type OpenDataDir } from '../store/data-dir/data-dir.ts';

/**
 * The disks' health, first of all: the data folder opens through it (a full disk gives back the
 * space reserve so that SQLite can open). Stopped last: its recheck timer, armed as soon as the
 * database opens on a full disk, would otherwise go on looking at the disk in a process that
 * serves nothing, or in the desktop app's process that tries again.
 */
export const disk: Area<{ config: ServerConfig; log: Logger }, StorageHealth> = {
  name: 'disk',
  start: ({ config, log }) =>
    new StorageHealth({
      dataDir: config.dataDir,
      reserveBytes: config.storageReserveBytes,
      recheckMs: config.storageRecheckMs,
      log,
      now: Date.now,
    }),
};

/**
 * The data folder and its database. Refused (StartRefused) while another server holds the folder,
 * or when its database is not the one that has seen its files: nothing is touched before either
 * is settled. Closed last of all, which releases the folder to the next server (a restore's).
 */
export const dataFolder: Area<{ config: ServerConfig; log: Logger; storage: StorageHealth }, Started & { data: OpenDataDir }> = {
  name: 'data folder',
  start: ({ config, log, storage }) => {
    const data = openDataDir(config.dataDir, config.sqliteEngine, log, newId, (file) =>
      openDatabaseOnDisk(file, config.sqliteEngine, storage, log),
    );
    // A restore staged and made ready before a stop (or a crash) was put in place by the open; a half-built one thrown away.
    if (data.restored) log.info('restored from a backup', { dataDir: config.dataDir });
    return { data, stop: () => data.close() };
  },
};
