import crypto from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { TokenResponse } from './contract/dto.ts';
import { resolveConfig, type ConfigInput, type ServerConfig } from './config.ts';
import { EventBus } from './events/bus.ts';
import { createApp } from './http/app.ts';
import { answerParserErrors } from './http/parser-errors.ts';
import { createLogger, type Logger } from './log.ts';
import { AccessTokens } from './services/access-tokens.ts';
import type { ServiceDeps } from './services/context.ts';
import { createServices, type Services } from './services/index.ts';
import { PasswordHasher } from './services/passwords.ts';
import { RateLimiter } from './services/rate-limiter.ts';
import { newId } from './services/secrets.ts';
import { openDatabase } from './store/db.ts';
import { preparePrivateDataDir } from './store/data-dir.ts';
import { createStore } from './store/index.ts';
import { loadOrCreateKeys } from './store/keys.ts';
import { ThumbnailStore } from './store/thumbs.ts';
import { detectMediaTools } from './media/tools.ts';
import { ContentStores } from './store/content-stores.ts';
import { reconcileContent } from './services/reconcile.ts';
import { WsGateway } from './ws/gateway.ts';
import { HostAllowList } from './http/host-allow-list.ts';
import { PublicOrigin } from './services/public-origin.ts';

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
  /** Runs upkeep now (it also runs on a timer): expiries, trash past retention. */
  runMaintenance(): Promise<void>;
  /** Resolves once the media queue is empty (tests, benchmarks). */
  mediaIdle(): Promise<void>;
  close(): Promise<void>;
}


/** The server's one public door: the headless CLI and the Electron app both call this. */
export async function startServer(input: ConfigInput = {}): Promise<RunningServer> {
  const config = resolveConfig(input);
  const log = createLogger(config.logLevel);
  preparePrivateDataDir(config.dataDir, log);
  const db = openDatabase(path.join(config.dataDir, 'hearth.db'), config.sqliteEngine);
  const store = createStore(db);
  const now = Date.now;

  // Server identity and keys are made once and kept with the data (the keys outside the database).
  const serverId = store.meta.getOrInit('server_id', newId());
  const keys = loadOrCreateKeys(config.dataDir);

  const passwords = new PasswordHasher(config.passwordHashCost, config.passwordHashConcurrency, config.passwordHashQueue);
  const bus = new EventBus(now, (error) => log.error('event listener failed', { error: String(error) }));
  const deps: ServiceDeps = {
    config,
    store,
    bus,
    log,
    now,
    passwords,
    accessTokens: new AccessTokens(keys.token),
    // A guess's check is one password hash: the limiter keeps the wait and the hash within its bound.
    rateLimiter: new RateLimiter(store.rateEvents, config.rateLimit, now, store.transaction, undefined, () => passwords.expectedMs()),
  };
  const content = await ContentStores.open(store.libraries, config.dataDir, now());
  const { tools: mediaTools, ffmpegOrigin, ffmpegVersion } = detectMediaTools(config);
  const thumbs = new ThumbnailStore(path.join(config.dataDir, 'thumbs'));
  const origin = new PublicOrigin(config);
  const services = createServices(deps, {
    serverId,
    content,
    keys: { link: keys.link, totp: keys.totp, pairing: subKey(keys.token, 'pairing-code') },
    thumbs,
    mediaTools,
    origin,
  });
  const sealed = services.twoFactor.sealStoredSecrets();
  if (sealed > 0) log.info('sealed TOTP secrets stored in clear by an earlier version', { accounts: sealed });
  // Finish uploads whose bytes were complete when the server last stopped, before anything
  // else looks at the content files.
  await services.uploads.recover();
  // The configured origin's own name is one the family uses: it is allowed like HOST_NAMES.
  const hosts = new HostAllowList([...config.hostNames, ...(config.publicUrl ? [new URL(config.publicUrl).hostname] : [])]);
  const app = createApp(services, log, config.jsonBodyLimitBytes, hosts, config.webDir);
  const handle = app.callback();
  // Node's missing-Host answer is a bare 400: the app refuses it with the envelope instead.
  const server = http.createServer({ requireHostHeader: false }, handle);
  answerParserErrors(server, log);
  const gateway = new WsGateway(server, bus, services.sessions, config.ws, log, hosts, handle);

  try {
    await listen(server, config.port, config.host);
  } catch (error) {
    gateway.close();
    db.close();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  origin.listeningOn(port);
  const maintenance = startMaintenance(services, deps, log, config.maintenanceIntervalMs);
  // Plugged-in drives and pools after a reboot come back without waiting for maintenance.
  const libraryCheck = setInterval(() => void services.libraries.refresh().catch((error) => log.error('library check failed', { error: String(error) })), config.libraryCheckIntervalMs);
  libraryCheck.unref();
  services.media.start();
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
  const reconciled = reconcileContent(deps, content).catch((error) => log.error('reconciliation failed', { error: String(error) }));

  let closed: Promise<void> | undefined;
  return {
    url: `http://${clientHost(config.host)}:${port}`,
    port,
    config,
    bus,
    gateway,
    localOwnerSession: () => services.localOwner.open(),
    runMaintenance: maintenance.run,
    mediaIdle: () => services.media.idle(),
    close: () =>
      (closed ??= (async () => {
        clearInterval(maintenance.timer);
        clearInterval(libraryCheck);
        await reconciled;
        await services.media.stop();
        await services.libraries.stop();
        gateway.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        db.close();
      })()),
  };
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function startMaintenance(services: Services, deps: ServiceDeps, log: Logger, intervalMs: number) {
  const run = async () => {
    try {
      services.sessions.expireStale();
      deps.rateLimiter.pruneExpired();
      services.idempotency.prune();
      await services.uploads.expire();
      await services.libraries.refresh();
      await services.nodes.purgeTrash(services.settings.current().trash_retention_days);
    } catch (error) {
      log.error('maintenance failed', { error: String(error) });
    }
  };
  void run();
  const timer = setInterval(() => void run(), intervalMs);
  timer.unref();
  return { run, timer };
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
