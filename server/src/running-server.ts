import type { BackupHealth, BackupRun, RestoreSnapshots } from './contract/backup-responses.ts';
import type { TokenResponse } from './contract/identity-responses.ts';
import type { ServerConfig } from './config.ts';
import type { EventBus, BusListener } from './events/bus.ts';
import type { OwnerRecoveryCode } from './services/identity/owner-recovery.ts';
import type { SetupInput } from './services/identity/auth.ts';
import { HOSTING_PROCESS, type RestoreChoice, type RestoreSource } from './services/backup/restore.ts';
import type { WsGateway } from './ws/gateway.ts';
import type { Composed } from './areas/compose.ts';
import type { OpenHomeNetwork } from './home-network/open.ts';
import { MAINTENANCE, type Scheduler } from './jobs/index.ts';

export interface RunningServer {
  /** Where clients on this machine reach the server. */
  url: string;
  port: number;
  config: ServerConfig;
  /** The event bus, for an in-process host (the Electron main) that wants to listen. */
  bus: EventBus;
  gateway: WsGateway;
  /**
   * A token pair for the owner, for the desktop app's window (the owner at the machine): no
   * password, no approval. Only the process that started the server can call this; no HTTP
   * route reaches it. Null before first-run setup (the window then shows setup).
   */
  localOwnerSession(): TokenResponse | null;
  /**
   * Headless first run: the setup code another machine needs and where to type it, for the
   * one line `npm start` prints beside "listening on". Null once set up, and in the desktop app.
   */
  setup: { code: string; url: string } | null;
  /**
   * First-run setup from the process that started the server (the desktop app's window,
   * through its bridge): makes the owner and answers the owner's desktop session. Then the
   * server starts listening on the home network too. No HTTP route reaches it.
   */
  setupOwner(input: SetupInput): Promise<TokenResponse>;
  /**
   * A one-time owner recovery code for the owner at the machine (the tray menu); null before
   * setup. Throws AppError `storage_full` or `storage_read_only` when the disk refuses to keep it.
   */
  ownerRecoveryCode(): OwnerRecoveryCode | null;
  /** Whether backups are overdue, for the desktop's tray (then the `backup.health` event says when it changes). */
  backupHealth(): BackupHealth;
  /**
   * A fresh install's restore from the process that started the server (the desktop app's
   * window, through its bridge, where the network's POST /setup/restore is refused as POST
   * /setup is): the snapshots of a backup folder, then the restore of one. No HTTP route reaches these.
   */
  restoreSnapshots(input: RestoreSource): Promise<RestoreSnapshots>;
  startRestore(input: RestoreChoice): Promise<BackupRun>;
  /**
   * Listens to the events of the server running now, and of each one a restore starts after it
   * (`bus` is the current one's only: a listener on it is deaf after a restore). Answers the unsubscribe.
   */
  subscribe(listener: BusListener): () => void;
  /**
   * Called once the server has started again on restored data (null), or could not (the error:
   * nothing serves then, and the host should start the process again, which opens the restore).
   */
  onRestarted(listener: (error: Error | null) => void): void;
  /** Runs upkeep now (it also runs on a timer): expiries, trash past retention. Resolves when it is done. */
  runMaintenance(): Promise<void>;
  /** Resolves once HTTPS has its first certificate (at once when HTTPS is off). */
  httpsReady(): Promise<void>;
  /** Resolves once the media queue is empty (tests, benchmarks). */
  mediaIdle(): Promise<void>;
  /** Resolves once every photo there is has been looked at for faces (tests, benchmarks). */
  facesIdle(): Promise<void>;
  /** Resolves once no playback copy waits to be made, or what waits cannot be made now (tests, benchmarks). */
  playbackIdle(): Promise<void>;
  /** Resolves once the files with the same bytes that uploads stored apart are merged, as far as they can be now (tests). */
  contentIdle(): Promise<void>;
  close(): Promise<void>;
}

/** What the areas of one running server give its handle (index.ts startOnce). */
export interface RunningParts {
  composed: Composed;
  gateway: WsGateway;
  homeNetwork: OpenHomeNetwork;
  scheduler: Scheduler;
  playbackIdle: () => Promise<void>;
  close: () => Promise<void>;
}

/** The handle of one server on one data folder (a restore's restart makes another: index.ts startServer). */
export function runningServer({ composed, gateway, homeNetwork, scheduler, playbackIdle, close }: RunningParts): RunningServer {
  const { config, bus, services, storage } = composed;
  return {
    url: homeNetwork.url,
    port: homeNetwork.port,
    config,
    bus,
    gateway,
    localOwnerSession: () => services.localOwner.open(),
    get setup() {
      const code = services.setupGate.setupCode();
      return code === null ? null : { code, url: `${services.origin.current()}/` };
    },
    setupOwner: async (input) => {
      await services.auth.setupAtThisPc(input);
      await homeNetwork.widen();
      return services.localOwner.open()!;
    },
    ownerRecoveryCode: () => {
      try {
        return services.ownerRecovery.issue();
      } catch (error) {
        // Said as what it is (storage_full, storage_read_only), as the API would answer it.
        const fault = storage.noteFailure(error);
        throw fault ? storage.refusal(fault) : error;
      }
    },
    backupHealth: () => services.backupHealth.current(),
    restoreSnapshots: (source) => services.restore.snapshots(source, HOSTING_PROCESS),
    startRestore: (source) => services.restore.start(source, HOSTING_PROCESS),
    subscribe: (listener) => bus.subscribe(listener),
    // One server never starts again by itself: the handle startServer answers does (index.ts).
    onRestarted: () => {},
    runMaintenance: () => scheduler.runNow(MAINTENANCE),
    httpsReady: () => homeNetwork.httpsReady,
    mediaIdle: () => services.media.idle(),
    facesIdle: () => services.faceScanner.idle(),
    playbackIdle,
    contentIdle: async () => {
      await services.contentMerge.idle();
      await services.contentMerge.mergeLeftovers(new AbortController().signal);
    },
    close,
  };
}
