import crypto from 'node:crypto';
import path from 'node:path';
import type { ServerConfig } from '../config.ts';
import { EventBus } from '../events/bus.ts';
import { HomeNetwork } from '../home-network/home-network.ts';
import type { Logger } from '../log.ts';
import { detectMediaTools, type DetectedMediaTools } from '../media/tools.ts';
import type { ServiceDeps } from '../services/common/context.ts';
import { RateLimiter } from '../services/common/rate-limiter.ts';
import { newId } from '../services/common/secrets.ts';
import { AccessTokens } from '../services/identity/access-tokens.ts';
import { PasswordHasher } from '../services/identity/passwords.ts';
import { createServices, type Services } from '../services/index.ts';
import type { StorageHealth } from '../services/storage/storage-health.ts';
import { ContentStores } from '../store/content/content-stores.ts';
import type { OpenDataDir } from '../store/data-dir/data-dir.ts';
import { createStore } from '../store/index.ts';
import { loadOrCreateKeys } from '../store/data-dir/keys.ts';
import { ThumbnailStore } from '../store/content/thumbs.ts';

/** Everything made on an open data folder before anything starts: what the areas after it start on. */
export interface Composed {
  config: ServerConfig;
  log: Logger;
  deps: ServiceDeps;
  bus: EventBus;
  services: Services;
  storage: StorageHealth;
  content: ContentStores;
  media: DetectedMediaTools;
  homeNetwork: HomeNetwork;
}

/**
 * Makes the server's parts on its data folder: keys, the event bus, the content stores, the home
 * network and the services. Starts nothing that needs stopping; the last steps finish what the
 * previous run of the server left (sealing TOTP secrets, uploads complete when it stopped).
 */
export async function compose(
  config: ServerConfig,
  log: Logger,
  { db }: OpenDataDir,
  storage: StorageHealth,
  restart: () => void,
): Promise<Composed> {
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
  const media = detectMediaTools(config);
  const homeNetwork = new HomeNetwork({ config, log, bus, serverId, serverName: () => services.settings.current().server_name });
  const services = createServices(deps, {
    httpsCertificates: homeNetwork.certificates,
    serverId,
    content,
    keys: { link: keys.link, totp: keys.totp, pairing: subKey(keys.token, 'pairing-code') },
    thumbs: new ThumbnailStore(path.join(config.dataDir, 'thumbs')),
    mediaTools: media.tools,
    origin: homeNetwork.origin,
    storage,
    localName: () => homeNetwork.localName.current(),
    tailnet: homeNetwork.tailnet,
    restart,
  });
  const sealed = services.twoFactor.sealStoredSecrets();
  if (sealed > 0) log.info('sealed TOTP secrets stored in clear by an earlier version', { accounts: sealed });
  // Finish uploads whose bytes were complete when the server last stopped, before anything
  // else looks at the content files.
  await services.uploads.recover();
  return { config, log, deps, bus, services, storage, content, media, homeNetwork };
}

/** A key of its own for one use, derived from a stored key (HMAC as a PRF). */
function subKey(key: Buffer, use: string): Buffer {
  return crypto.createHmac('sha256', key).update(`hearth subkey: ${use}`).digest();
}
