import type { Area, Started } from '../lifecycle.ts';
import type { Composed } from './compose.ts';

/*
 * The work the server does beside answering requests, each area stopped before the one started
 * before it: the restore, then the jobs (areas/jobs.ts), then backups, reconciliation, playback
 * copies and media, then the merges and drive checks, then the disk watch, all while the home
 * network and the web server still answer, and before the database closes.
 */

/** The disks looked at again once serving, and the space reserve made when there is room. */
export const diskWatch: Area<Composed> = {
  name: 'disk watch',
  start: ({ storage, content }) => {
    storage.start(() => {
      try {
        return content.defaultLibrary().blobs.root;
      } catch {
        return null;
      }
    });
    return { stop: () => storage.stop() };
  },
};

/**
 * Nothing to start: merges of files with the same bytes follow uploads, drive checks follow the
 * jobs and the owner. Both write to the database, so they end here, after the media workers.
 */
export const libraries: Area<Composed> = {
  name: 'libraries',
  start: ({ services }) => ({
    stop: async () => {
      await services.contentMerge.idle();
      await services.libraries.stop();
    },
  }),
};

/** Thumbnails and posters in worker processes, off the request path; which tools make them is said once. */
export const media: Area<Composed> = {
  name: 'media',
  start: ({ services, log, media: { tools, ffmpegOrigin, ffmpegVersion, ffmpegRefused } }) => {
    services.media.start();
    for (const refused of ffmpegRefused) log.warn('ffmpeg not used', refused);
    if (tools.ffmpeg) {
      log.info('video posters by ffmpeg', {
        ffmpeg: tools.ffmpeg,
        origin: ffmpegOrigin,
        ...(ffmpegVersion && { version: ffmpegVersion }),
        ffprobe: tools.ffprobe,
      });
    } else log.info('ffmpeg not found: videos get no poster frame (set FFMPEG_PATH)');
    if (!tools.heifConvert) log.info('heif-convert not found: HEIC photos are decoded by the slower built-in decoder');
    return { stop: () => services.media.stop() };
  },
};

/** Faces found and grouped in the background, after the thumbnails and behind the family's requests. */
export const faces: Area<Composed> = {
  name: 'faces',
  start: ({ services }) => {
    services.faceScanner.start();
    return { stop: () => services.faceScanner.stop() };
  },
};

/** Playback copies: checked against their files before the queue runs; the server answers meanwhile. */
export const playback: Area<Composed, Started & { idle(): Promise<void> }> = {
  name: 'playback',
  start: ({ services, log }) => {
    const started = services.playback.start().catch((error) => log.error('playback copies not started', { error: String(error) }));
    return {
      idle: async () => {
        await started;
        await services.playback.idle();
      },
      stop: async () => {
        await started;
        await services.playback.stop();
      },
    };
  },
};

/** Reconciliation walks every content file: it runs after the server is already answering. */
export const reconcile: Area<Composed> = {
  name: 'reconcile',
  start: ({ services, log }) => {
    const reconciled = services.contentUpkeep.reconcile().catch((error) => log.error('reconciliation failed', { error: String(error) }));
    return {
      stop: async () => {
        await reconciled;
      },
    };
  },
};

/** Nothing to start (the backup job starts runs): a run under way is asked to stop and waited for, it writes to the database. */
export const backups: Area<Composed> = {
  name: 'backups',
  start: ({ services }) => ({
    stop: async () => {
      await services.backup.stop();
      services.snapshotDbs.close();
    },
  }),
};

/** Nothing to start (the hosting process or setup starts one): a restore under way stops first, its half-built copy thrown away. */
export const restore: Area<Composed> = {
  name: 'restore',
  start: ({ services }) => ({ stop: () => services.restore.stop() }),
};
