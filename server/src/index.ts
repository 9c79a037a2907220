import crypto from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import type { TokenResponse } from './contract/identity-responses.ts';
import { resolveConfig, type ConfigInput, type ServerConfig } from './config.ts';
import { EventBus, type BusListener } from './events/bus.ts';
import { createJobs, MAINTENANCE, Scheduler } from './jobs/index.ts';
import { createApp } from './http/app.ts';
import { answerParserErrors } from './http/parser-errors.ts';
import { createLogger, type Logger } from './log.ts';
import { AccessTokens } from './services/identity/access-tokens.ts';
import type { ServiceDeps } from './services/common/context.ts';
import { createServices } from './services/index.ts';
import { PasswordHasher } from './services/identity/passwords.ts';
import { RateLimiter } from './services/common/rate-limiter.ts';
import { newId } from './services/common/secrets.ts';
import { StorageHealth } from './services/storage/storage-health.ts';
import { openDatabaseOnDisk } from './services/storage/storage-start.ts';
import { openDataDir, preparePrivateDataDir, type OpenDataDir } from './store/data-dir/data-dir.ts';
import { createStore } from './store/index.ts';
import { loadOrCreateKeys } from './store/data-dir/keys.ts';
import { ThumbnailStore } from './store/content/thumbs.ts';
import { detectMediaTools } from './media/tools.ts';
import { ContentStores } from './store/content/content-stores.ts';
import { WsGateway } from './ws/gateway.ts';
import { HostAllowList } from './http/host-allow-list.ts';
import { homeNetworkListen, Listening, listenPlan } from './http/listening.ts';
import type { SetupInput } from './services/identity/auth.ts';
import type { BackupHealth, BackupRun, RestoreSnapshots } from './contract/backup-responses.ts';
import { HOSTING_PROCESS, type RestoreChoice, type RestoreSource } from './services/backup/restore.ts';
import type { OwnerRecoveryCode } from './services/identity/owner-recovery.ts';
import { PublicOrigin } from './services/server/public-origin.ts';
import { Tailnet } from './services/server/tailnet.ts';
import { TrustedProxies } from './http/trusted-proxies.ts';
import { HttpsCertificates } from './services/server/https-certificates.ts';
import { homeNetworkNames } from './services/server/home-names.ts';
import { TlsFiles } from './store/data-dir/tls-files.ts';
import { createFrontDoor } from './http/front-door.ts';
import { LocalName } from './services/server/local-name.ts';
import { openMdnsResponder } from './platform/mdns.ts';
import { listLanAddresses } from './platform/network.ts';

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
  /** Resolves once no playback copy waits to be made, or what waits cannot be made now (tests, benchmarks). */
  playbackIdle(): Promise<void>;
  /** Resolves once the files with the same bytes that uploads stored apart are merged, as far as they can be now (tests). */
  contentIdle(): Promise<void>;
  close(): Promise<void>;
}

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
    playbackIdle: () => current.playbackIdle(),
    contentIdle: () => current.contentIdle(),
    close: async () => {
      closing = true;
      await restarting;
      await current.close();
    },
  };
}

async function startOnce(input: ConfigInput, restart: () => void): Promise<RunningServer> {
  const config = resolveConfig(input);
  const log = createLogger(config.logLevel);
  preparePrivateDataDir(config.dataDir, log);
  const now = Date.now;
  // Refused (StartRefused) while another server holds the folder, or when its database is not
  // the one that has seen its files: nothing is touched before either is settled. Once the
  // folder is ours, a full disk gives back the space reserve so that SQLite can open.
  const storage = new StorageHealth({
    dataDir: config.dataDir,
    reserveBytes: config.storageReserveBytes,
    recheckMs: config.storageRecheckMs,
    log,
    now,
  });
  // A start that fails stops what it started: the disk's recheck timer (armed as soon as the
  // database opens on a full disk) would otherwise go on looking at the disk in a process that
  // serves nothing, or in the desktop app's process that tries again.
  let data: OpenDataDir;
  try {
    data = openDataDir(config.dataDir, config.sqliteEngine, log, newId, (file) =>
      openDatabaseOnDisk(file, config.sqliteEngine, storage, log),
    );
  } catch (error) {
    await storage.stop();
    throw error;
  }
  // A restore staged and made ready before a stop (or a crash) was put in place by the open; a half-built one thrown away.
  if (data.restored) log.info('restored from a backup', { dataDir: config.dataDir });
  return startOn(config, log, data, storage, restart).catch(async (error: unknown) => {
    await storage.stop();
    data.close();
    throw error;
  });
}

async function startOn(
  config: ServerConfig,
  log: Logger,
  data: OpenDataDir,
  storage: StorageHealth,
  restart: () => void,
): Promise<RunningServer> {
  const { db } = data;
  const store = createStore(db);
  const now = Date.now;

  // Server identity and keys are made once and kept with the data (the keys outside the database).
  const serverId = store.meta.getOrInit('server_id', newId());
  // A missing token key (a restored backup carries none) is made anew, after every session of before is ended.
  const keys = loadOrCreateKeys(config.dataDir, () => {
    const ended = store.sessions.endAllLive('keys_replaced', now());
    if (ended > 0) log.info('a new token key: every device signs in again', { sessions: ended });
  });

  const passwords = new PasswordHasher(config.passwordHashCost, config.passwordHashConcurrency, config.passwordHashQueue);
  const bus = new EventBus(now, (error) => log.error('event listener failed', { error: String(error) }));
  const deps: ServiceDeps = {
    config,
    store,
    bus,
    log,
    now,
    passwords,
    accessTokens: new AccessTokens(keys.token, { full: config.accessTokenTtlMs, pending: config.pendingTokenTtlMs }),
    // A guess's check is one password hash: the limiter keeps the wait and the hash within its bound.
    rateLimiter: new RateLimiter(store.rateEvents, config.rateLimit, now, store.transaction, undefined, () => passwords.expectedMs()),
  };
  const content = await ContentStores.open(store.libraries, config.dataDir, now());
  const { tools: mediaTools, ffmpegOrigin, ffmpegVersion, ffmpegRefused } = detectMediaTools(config);
  const thumbs = new ThumbnailStore(path.join(config.dataDir, 'thumbs'));
  // Tailscale, looked at once the server listens: its tailnet name becomes one of the server's names and its links' origin.
  const tailnet = new Tailnet(config, log);
  const origin = new PublicOrigin(
    config,
    undefined,
    undefined,
    () => tailnet.linkName(),
    () => localName.current(),
  );
  // The server's name is read wherever it is used (services exist by then): a rename reaches the certificate.
  const serverName = () => services.settings.current().server_name;
  const localName = new LocalName({
    openResponder: openMdnsResponder,
    lanAdapters: () => [...new Set(listLanAddresses().map((a) => a.interface))],
    serverName,
    txt: { id: serverId, version: config.version },
    bus,
    log,
  });
  const httpsCertificates = config.https
    ? new HttpsCertificates({
        dataDir: config.dataDir,
        files: new TlsFiles(config.dataDir),
        // Made at the first start, before the owner names the server: one plain name phones list it under.
        authorityName: () => 'Hearth home network',
        wantedNames: () =>
          homeNetworkNames(
            config,
            serverName(),
            [localName.current()].filter((name) => name !== null),
          ),
        log,
        now,
      })
    : null;
  const services = createServices(deps, {
    httpsCertificates,
    serverId,
    content,
    keys: { link: keys.link, totp: keys.totp, pairing: subKey(keys.token, 'pairing-code') },
    thumbs,
    mediaTools,
    origin,
    storage,
    localName: () => localName.current(),
    tailnet,
    restart,
  });
  const sealed = services.twoFactor.sealStoredSecrets();
  if (sealed > 0) log.info('sealed TOTP secrets stored in clear by an earlier version', { accounts: sealed });
  // Finish uploads whose bytes were complete when the server last stopped, before anything
  // else looks at the content files.
  await services.uploads.recover();
  // The configured origin's own name is one the family uses: it is allowed like HOST_NAMES.
  // So is the tailnet name while Tailscale is up; behind a trusted proxy, the name it forwards is the one checked.
  const trusted = new TrustedProxies(config.trustedProxies, config.trustedProxyHeader);
  const hosts = new HostAllowList([...config.hostNames, ...(config.publicUrl ? [new URL(config.publicUrl).hostname] : [])])
    .alsoAllow(() => (tailnet.current() ? [tailnet.current()!.name] : []))
    .believing(trusted);
  const app = createApp(services, log, config.jsonBodyLimitBytes, hosts, config.webDir, trusted, config.downloads);
  const handle = app.callback();
  // Node's missing-Host answer is a bare 400: the app refuses it with the envelope instead.
  const server = http.createServer({ requireHostHeader: false }, handle);
  answerParserErrors(server, log);
  const gateway = new WsGateway(server, bus, services.sessions, config.ws, log, hosts, handle);
  // The tailnet name is answered with the certificate `tailscale cert` gave for it.
  const front = createFrontDoor(server, log, (servername) => (servername === tailnet.current()?.name ? tailnet.certificate() : null));
  tailnet.servesHttps(true);

  // The desktop app before its owner exists listens on this PC alone (setup is in its window).
  const ownerExists = store.users.count() > 0;
  const listening = new Listening(front.server, listenPlan(config.host, config.hostedSetup ? { ownerExists } : null));
  let port: number;
  try {
    port = await listening.start(config.port);
    if (ownerExists) await listening.widen();
  } catch (error) {
    listening.close();
    front.server.close();
    server.close();
    gateway.close();
    db.close();
    throw error;
  }
  origin.listeningOn(port);
  // Tailscale coming up or going away moves where links open: the share dialogs hear it at once.
  const unwatchTailnet = tailnet.onChange(() =>
    bus.publish('server.settings_changed', { settings: services.settings.view() }, { everyone: true }),
  );
  void tailnet.start();
  // The first certificate (and on a first start, the authority) is made off the request path:
  // plain HTTP answers meanwhile, and HTTPS opens as soon as it is ready.
  const unwatchCertificates = httpsCertificates?.onChange(() => front.useCertificate(httpsCertificates.tlsOptions()));
  const httpsStarted = httpsCertificates?.start() ?? Promise.resolve();
  // The name won on the network (hearth-2.local after a clash) is in the certificate at once.
  const unwatchLocalName = localName.onChange(() => void httpsCertificates?.check());
  // A renamed server gets a certificate for its new .local name at once, not at the next check.
  const unwatchRenames = bus.subscribe((event) => {
    if (event.message.type === 'server.settings_changed') void httpsCertificates?.check();
  });
  // The name is announced once the home network can reach the server (never for this PC alone).
  const announce = () => {
    const at = homeNetworkListen(listening.plan);
    if (config.announce && at !== null) void localName.start({ port, ...at });
  };
  if (ownerExists || listening.plan.then === null) announce();
  storage.start(() => {
    try {
      return content.defaultLibrary().blobs.root;
    } catch {
      return null;
    }
  });
  // Upkeep and drive checks (jobs/): a job that fails waits longer each time, and a full or
  // read-only disk is logged once by storage, not by every run that meets it.
  const scheduler = new Scheduler(createJobs(services, deps), { log, alreadyReported: (error) => storage.noteFailure(error) !== null });
  scheduler.start();
  // Room again: uploads whose completion the full disk cut short are finished now, and the
  // jobs the full disk failed run at their usual rhythm again.
  const unwatchStorage = storage.onChange(() => {
    if (storage.summary() !== 'ok') return;
    scheduler.endBackoff();
    void services.uploads.finishCutShort().catch((error) => log.error('uploads not completed', { error: String(error) }));
  });
  services.media.start();
  // Copies are checked against their files before the queue runs; the server answers meanwhile.
  const playbackStarted = services.playback.start().catch((error) => log.error('playback copies not started', { error: String(error) }));
  for (const refused of ffmpegRefused) log.warn('ffmpeg not used', refused);
  if (mediaTools.ffmpeg) {
    log.info('video posters by ffmpeg', {
      ffmpeg: mediaTools.ffmpeg,
      origin: ffmpegOrigin,
      ...(ffmpegVersion && { version: ffmpegVersion }),
      ffprobe: mediaTools.ffprobe,
    });
  } else log.info('ffmpeg not found: videos get no poster frame (set FFMPEG_PATH)');
  if (!mediaTools.heifConvert) log.info('heif-convert not found: HEIC photos are decoded by the slower built-in decoder');
  // Reconciliation walks every content file: it runs after the server is already answering.
  const reconciled = services.contentUpkeep.reconcile().catch((error) => log.error('reconciliation failed', { error: String(error) }));

  let closed: Promise<void> | undefined;
  return {
    url: `http://${clientHost(listening.plan.first)}:${port}`,
    port,
    config,
    bus,
    gateway,
    localOwnerSession: () => services.localOwner.open(),
    get setup() {
      const code = services.setupGate.setupCode();
      return code === null ? null : { code, url: `${origin.current()}/` };
    },
    setupOwner: async (input) => {
      await services.auth.setupAtThisPc(input);
      await listening.widen().then(announce, (error) => log.error('could not listen on the home network', { error: String(error) }));
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
    // One server never starts again by itself: the handle startServer answers does (above).
    onRestarted: () => {},
    runMaintenance: () => scheduler.runNow(MAINTENANCE),
    httpsReady: () => httpsStarted,
    mediaIdle: () => services.media.idle(),
    playbackIdle: async () => {
      await playbackStarted;
      await services.playback.idle();
    },
    contentIdle: async () => {
      await services.contentMerge.idle();
      await services.contentMerge.mergeLeftovers(new AbortController().signal);
    },
    close: () =>
      (closed ??= (async () => {
        // A job under way is asked to stop, and waited for: it may be writing to the database.
        services.restore.stop();
        await scheduler.stop();
        await services.backup.stop();
        services.snapshotDbs.close();
        unwatchStorage();
        unwatchTailnet();
        await tailnet.stop();
        await reconciled;
        await playbackStarted;
        await services.playback.stop();
        await services.media.stop();
        // A merge under way writes to the database: it ends before the database closes.
        await services.contentMerge.idle();
        await services.libraries.stop();
        await storage.stop();
        await httpsStarted;
        httpsCertificates?.stop();
        unwatchCertificates?.();
        unwatchRenames();
        unwatchLocalName();
        await localName.stop();
        gateway.close();
        listening.close();
        front.server.close();
        front.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        data.close();
      })()),
  };
}

/** A key of its own for one use, derived from a stored key (HMAC as a PRF). */
function subKey(key: Buffer, use: string): Buffer {
  return crypto.createHmac('sha256', key).update(`hearth subkey: ${use}`).digest();
}

/** A wildcard listen address is not something a client can dial. */
function clientHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
