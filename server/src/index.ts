import { backups, diskWatch, faces, libraries, media, playback, reconcile, restore } from './areas/background.ts';
import { compose } from './areas/compose.ts';
import { dataFolder, disk } from './areas/data-folder.ts';
import { jobs } from './areas/jobs.ts';
import { web } from './areas/web.ts';
import { resolveConfig, type ConfigInput } from './config.ts';
import type { BusListener } from './events/bus.ts';
import { Lifecycle } from './lifecycle.ts';
import { createLogger } from './log.ts';
import { runningServer, type RunningServer } from './running-server.ts';
import { preparePrivateDataDir } from './store/data-dir/data-dir.ts';

export type { RunningServer } from './running-server.ts';

/**
 * The server's one public door: the headless CLI and the Electron app both call this. A restore
 * from a backup on a fresh install (RestoreService) ends by stopping the server and starting it
 * again, on the same port, on the restored data folder: the object answered here stays the
 * caller's handle throughout, and speaks for the server running now.
 */
export async function startServer(input: ConfigInput = {}): Promise<RunningServer> {
  let current: RunningServer;
  let restarting: Promise<void> | null = null;
  let closing = false;
  // Listeners of every server this handle speaks for, each with its unsubscribe from the current bus.
  const listeners = new Map<BusListener, () => void>();
  const restartedListeners: ((error: Error | null) => void)[] = [];
  const restarted = (error: Error | null) => {
    for (const listener of restartedListeners) listener(error);
  };
  const restart = () => {
    restarting ??= (async () => {
      const port = current.port;
      await current.close();
      if (closing) return;
      current = await startOnce({ ...input, port }, restart);
      for (const listener of listeners.keys()) listeners.set(listener, current.subscribe(listener));
      restarted(null);
    })()
      .catch((error: unknown) => {
        createLogger(current.config.logLevel).error('could not start again after a restore', { error: String(error) });
        restarted(error instanceof Error ? error : new Error(String(error)));
      })
      .finally(() => {
        restarting = null;
      });
  };
  current = await startOnce(input, restart);
  return {
    get url() {
      return current.url;
    },
    get port() {
      return current.port;
    },
    get config() {
      return current.config;
    },
    get bus() {
      return current.bus;
    },
    get gateway() {
      return current.gateway;
    },
    get setup() {
      return current.setup;
    },
    localOwnerSession: () => current.localOwnerSession(),
    setupOwner: (owner) => current.setupOwner(owner),
    ownerRecoveryCode: () => current.ownerRecoveryCode(),
    backupHealth: () => current.backupHealth(),
    restoreSnapshots: (source) => current.restoreSnapshots(source),
    startRestore: (source) => current.startRestore(source),
    subscribe: (listener) => {
      listeners.set(listener, current.subscribe(listener));
      return () => {
        listeners.get(listener)?.();
        listeners.delete(listener);
      };
    },
    onRestarted: (listener) => {
      restartedListeners.push(listener);
    },
    runMaintenance: () => current.runMaintenance(),
    httpsReady: () => current.httpsReady(),
    mediaIdle: () => current.mediaIdle(),
    facesIdle: () => current.facesIdle(),
    playbackIdle: () => current.playbackIdle(),
    contentIdle: () => current.contentIdle(),
    close: async () => {
      closing = true;
      await restarting;
      await current.close();
    },
  };
}

/**
 * One server on one data folder: its areas start in this order and stop in the reverse one
 * (lifecycle.ts), so a new area is a file in areas/ and one line here. A start that fails stops
 * what had started: nothing is left listening, looking at the disk or holding the folder.
 */
async function startOnce(input: ConfigInput, restart: () => void): Promise<RunningServer> {
  const config = resolveConfig(input);
  const log = createLogger(config.logLevel);
  preparePrivateDataDir(config.dataDir, log);
  const lifecycle = new Lifecycle(log);
  try {
    const storage = await lifecycle.start(disk, { config, log });
    const { data } = await lifecycle.start(dataFolder, { config, log, storage });
    const composed = await compose(config, log, data, storage, restart);
    const { server, gateway } = await lifecycle.start(web, composed);
    const { services, bus } = composed;
    const homeNetwork = await lifecycle.start(composed.homeNetwork.area, {
      server,
      ownerExists: composed.deps.store.users.count() > 0,
      settingsChanged: () => bus.publish('server.settings_changed', { settings: services.settings.view() }, { everyone: true }),
    });
    await lifecycle.start(diskWatch, composed);
    await lifecycle.start(libraries, composed);
    await lifecycle.start(media, composed);
    await lifecycle.start(faces, composed);
    const { idle: playbackIdle } = await lifecycle.start(playback, composed);
    await lifecycle.start(reconcile, composed);
    await lifecycle.start(backups, composed);
    const { scheduler } = await lifecycle.start(jobs, composed);
    await lifecycle.start(restore, composed);
    return runningServer({ composed, gateway, homeNetwork, scheduler, playbackIdle, close: () => lifecycle.stop() });
  } catch (error) {
    await lifecycle.stop();
    throw error;
  }
}
