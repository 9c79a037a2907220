import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  DEFAULT_PUSH_SERVICES,
  parseCost,
  parseLogLevel,
  parseMegabytes,
  parsePort,
  parsePushServices,
  parseTrustedProxyHeader,
  parseWhole,
  type TrustedProxyHeader,
} from './config-values.ts';
import { findWebDir } from './web-dir.ts';

/** Everything the server can be told, with the embedded defaults a fresh install runs on. */
export interface ServerConfig {
  host: string;
  port: number;
  dataDir: string;
  /** Access token lifetime; the spec's default is 15 minutes. */
  accessTokenTtlMs: number;
  /** A pending-scope token must outlive the wait for an owner to approve the device. */
  pendingTokenTtlMs: number;
  /**
   * A node's URL token (POST /nodes/{id}/access-token): long enough for a download or a video
   * to start and a video to be watched and seeked for a while (the web app asks again when one
   * expires under a playing video), short enough that a URL left in a downloads list is dead.
   */
  nodeTokenTtlMs: number;
  /** How long a session keeps the Private folder open after its unlock (PRIVATE_UNLOCK_MINUTES). */
  privateUnlockMs: number;
  /**
   * A zip download's ticket (POST /downloads): the browser follows its URL at once, so a minute
   * is plenty; unused by then it is gone, and a URL in a downloads list opens nothing.
   */
  downloadTicketTtlMs: number;
  /**
   * Files and folders in one zip. The zip writer keeps a little for each entry until the end
   * (a zip's directory lists them all last), so this bounds its memory; bytes are not bounded.
   */
  zipMaxEntries: number;
  /**
   * Downloads (files, their ranges, playback copies, zips; a link's too): one that moves nothing
   * to its reader for `stallMs` is closed with its file (a reader that stopped reading holds a
   * file and megabytes of buffers for ever otherwise; a slow one keeps moving and is never cut).
   * At most `perAddress` run at once from one client address, `perSession` for one session and
   * `perLink` through one share link; one more is 429 `too_many_downloads`.
   */
  downloads: { stallMs: number; perAddress: number; perSession: number; perLink: number };
  /** Refresh tokens live this long, renewed on each rotation; an idle session ends after it. */
  refreshTokenTtlMs: number;
  /** scrypt cost (N). OWASP's minimum for scrypt is 2^17 with r=8, p=1. */
  passwordHashCost: number;
  /** Password hashes running at once; each holds 128*N*r bytes of memory. */
  passwordHashConcurrency: number;
  /**
   * Hashes allowed to wait for a free slot, in all and per client address: beyond them a
   * request is refused at once (503 `busy`, or 429 for one address) instead of stalling
   * everyone's sign-in behind a flood.
   */
  passwordHashQueue: { maxWaiting: number; maxWaitingPerAddress: number };
  /**
   * Failed guesses (passwords, codes): an address (a link and an address, for link passwords)
   * is refused after `maxFailures` in `windowMs`; an account (or a link) is never locked, but
   * after `slowAfter` failures each further attempt waits, doubling from `slowBaseMs` up to
   * `slowMaxMs`, so a guesser cannot lock the rightful user out. No guess is held longer than
   * `maxHoldMs` in all (its slow-down, the guesses ahead of it, the hash): one that would be
   * is answered 429 with `Retry-After` at once.
   */
  rateLimit: { maxFailures: number; windowMs: number; slowAfter: number; slowBaseMs: number; slowMaxMs: number; maxHoldMs: number };
  /**
   * Host names the server answers to besides localhost, its own addresses and `*.local`
   * (DNS rebinding: a page on another name must not reach the API).
   */
  hostNames: string[];
  /**
   * HTTPS beside HTTP on the same port, with certificates from Hearth's own authority (made on
   * the first start, kept in keys.json). Off: plain HTTP only.
   */
  https: boolean;
  /** The origin family devices reach the server at, for link URLs; null: detected from the LAN address. */
  publicUrl: string | null;
  /**
   * Reverse proxies (addresses or CIDR ranges) whose `X-Forwarded-*` and `Forwarded` headers are
   * believed: the client's address and protocol. From anyone else those headers are ignored.
   */
  trustedProxies: string[];
  /**
   * Which forwarding headers a trusted proxy's requests are read from: the `X-Forwarded-*`
   * family, or the standard `Forwarded`, never both. A proxy writes one and passes the other on
   * as the visitor sent it (Caddy and nginx write X-Forwarded-For and pass `Forwarded` through),
   * so believing both would believe whatever a visitor wrote in the one the proxy leaves alone.
   */
  trustedProxyHeader: TrustedProxyHeader;
  /** Tailscale: 'auto' uses it when found on this PC and signed in; 'off' never runs it. */
  tailscale: 'auto' | 'off';
  /** The `tailscale` CLI; null looks it up on PATH and where its installers put it. */
  tailscalePath: string | null;
  /** How often Tailscale's state (signed in, the tailnet name, the certificate) is looked at again. */
  tailnetCheckIntervalMs: number;
  devicePollIntervalMs: number;
  ws: {
    /** Messages one connection's queue holds; the oldest is dropped beyond it. */
    queueCapacity: number;
    /** Bytes one connection's queue holds, whatever the number of messages. */
    queueBytes: number;
    /** Open sockets per session and per account; a newer one closes the oldest. */
    maxPerSession: number;
    maxPerAccount: number;
    heartbeatMs: number;
    maxPayloadBytes: number;
  };
  /** An upload that receives no data for this long is abandoned and its space reclaimed. */
  uploadExpiryMs: number;
  /** How often upkeep runs (expired sessions, uploads, trash past retention). */
  maintenanceIntervalMs: number;
  /** How often drives are checked: a library whose drive was plugged in again comes online within this. */
  libraryCheckIntervalMs: number;
  /**
   * Space kept back in the data folder and given back when its disk fills, so that signing in
   * and deleting still work on a full disk (0: none). A full disk takes uploads again once
   * twice this much is free.
   */
  storageReserveBytes: number;
  /** How often a full or read-only disk is looked at again. */
  storageRecheckMs: number;
  /** A media job that fails waits this long before its next try, four times as long after the next failure. */
  mediaRetryMs: number;
  /**
   * Playback copies are made only while the disk of the videos keeps at least this much free
   * beyond the copy itself: they are a convenience, and must never take the room new photos need.
   */
  playbackKeepFreeBytes: number;
  /**
   * The push services Web Push is sent to (a browser's subscription endpoint is outside input):
   * `https://host` or `https://*.domain`; `http://` only for a loopback address (tests). Any
   * other endpoint is refused and never contacted.
   */
  pushServices: string[];
  /** A push service that has not answered in this long is given up on (that one message). */
  pushTimeoutMs: number;
  /** Where drives are mounted: a library folder must be under one of these (or the data dir). */
  mountsRoots: string[];
  /** Mount points whose drive holds the operating system: never formatted. */
  systemPaths: string[];
  /** Loop devices are image files, not drives; tests present them as drives. */
  includeLoopDevices: boolean;
  /**
   * How drives are mounted, unmounted and formatted: 'auto' does it directly when the server
   * runs as root and through udisks2 otherwise; 'udisks' always through udisks2, so the
   * desktop sees the same mounts as a USB disk it mounted itself.
   */
  driveTools: 'auto' | 'udisks';
  /** How long the owner of an album may undo taking someone out of it (their photos come back with them). */
  albumUndoMs: number;
  /** Media worker processes; they run at a lower priority, so requests stay fast while they work. */
  mediaConcurrency: number;
  /** Files a backup sends to a bucket at once (a folder takes 4): each waits on round trips to a far place, and more fill the line. */
  backupBucketFilesAtOnce: number;
  /**
   * Start the media workers with the server, not with the first photo: loading a worker and
   * libvips costs 0.3-0.7 s of CPU, which would otherwise fall on the first uploads. Tests,
   * which start many servers and few photos, turn it off.
   */
  mediaWorkersAtStart: boolean;
  /**
   * Find and group the faces in photos, in the background on this PC (FIND_FACES=0 turns it off).
   * Tests, which start many servers, turn it on only where they look at faces.
   */
  findFaces: boolean;
  /** Also find things (a dog, a boat: media/things.ts) in the face pass; FIND_THINGS=0 turns it off. */ findThings: boolean;
  /** System tools for HEIC and video; null means look them up on PATH. */
  ffmpegPath: string | null;
  heifConvertPath: string | null;
  /**
   * The SQLite driver: 'auto' takes node:sqlite inside Electron and better-sqlite3 in plain
   * Node where its addon loads; 'node' or 'better' forces one (HEARTH_SQLITE).
   */
  sqliteEngine: 'auto' | 'node' | 'better';
  /** Largest JSON body a route accepts. */
  jsonBodyLimitBytes: number;
  logLevel: LogLevel;
  version: string;
  /** The built web app served at `/` (renderer/dist); null serves none. Found beside the server unless given. */
  webDir: string | null;
  /**
   * The desktop app hosts this server: first-run setup comes from it (never over the
   * network), and until an owner exists the server listens on this PC's loopback only.
   */
  hostedSetup: boolean;
  /**
   * Announce the server on the home network as `<server-name>.local` (mDNS/DNS-SD), so phones
   * reach it by a name that outlives the router moving it to another address. The desktop app
   * turns it on; headless, ANNOUNCE=1 does.
   */
  announce: boolean;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

export type { TrustedProxyHeader };

export const DEFAULT_CONFIG: Omit<ServerConfig, 'dataDir' | 'version' | 'webDir'> = {
  host: '0.0.0.0',
  port: 8420,
  accessTokenTtlMs: 15 * 60_000,
  pendingTokenTtlMs: 60 * 60_000,
  nodeTokenTtlMs: 5 * 60_000,
  privateUnlockMs: 5 * 60_000,
  downloadTicketTtlMs: 60_000,
  zipMaxEntries: 20_000,
  // A browser opens at most 6 connections to one server, a video 1 or 2; a household behind one
  // address (away from home, through a proxy) a few browsers; a link a few relatives at once.
  downloads: { stallMs: 60_000, perAddress: 24, perSession: 12, perLink: 16 },
  refreshTokenTtlMs: 30 * 24 * 60 * 60_000,
  passwordHashCost: 2 ** 17,
  passwordHashConcurrency: 2,
  passwordHashQueue: { maxWaiting: 32, maxWaitingPerAddress: 4 },
  rateLimit: { maxFailures: 10, windowMs: 15 * 60_000, slowAfter: 5, slowBaseMs: 500, slowMaxMs: 10_000, maxHoldMs: 10_000 },
  hostNames: [],
  https: true,
  publicUrl: null,
  trustedProxies: [],
  trustedProxyHeader: 'x-forwarded-for',
  tailscale: 'auto',
  tailscalePath: null,
  tailnetCheckIntervalMs: 5 * 60_000,
  devicePollIntervalMs: 4_000,
  // A session is one browser (its tabs share it); an account has a few devices.
  ws: { queueCapacity: 256, queueBytes: 1024 * 1024, maxPerSession: 8, maxPerAccount: 24, heartbeatMs: 30_000, maxPayloadBytes: 4096 },
  jsonBodyLimitBytes: 1024 * 1024,
  uploadExpiryMs: 24 * 60 * 60_000,
  maintenanceIntervalMs: 10 * 60_000,
  libraryCheckIntervalMs: 15_000,
  storageReserveBytes: 16 * 1024 * 1024,
  storageRecheckMs: 5_000,
  mediaRetryMs: 5_000,
  playbackKeepFreeBytes: 1024 ** 3,
  albumUndoMs: 10 * 60_000,
  mediaConcurrency: Math.max(1, os.availableParallelism()),
  backupBucketFilesAtOnce: 8,
  mediaWorkersAtStart: true,
  findFaces: true,
  findThings: true,
  mountsRoots: ['/media', '/mnt', '/run/media'],
  pushServices: DEFAULT_PUSH_SERVICES,
  pushTimeoutMs: 10_000,
  systemPaths: systemPathsOf(process.platform),
  includeLoopDevices: false,
  driveTools: 'auto',
  ffmpegPath: null,
  heifConvertPath: null,
  sqliteEngine: 'auto',
  logLevel: 'info',
  hostedSetup: false,
  announce: false,
};

/** Where the operating system lives on each OS: its drive is never formatted. */
function systemPathsOf(platform: NodeJS.Platform): string[] {
  if (platform === 'win32') return [process.env.SystemDrive || 'C:', `${process.env.SystemDrive || 'C:'}\\`];
  if (platform === 'darwin') return ['/', '/System/Volumes/Data', '/System/Volumes/Preboot', '/System/Volumes/VM'];
  return ['/', '/boot', '/boot/efi', '/usr', '/var', '/home', '[SWAP]'];
}

export const VERSION = '0.1.0';

export type ConfigInput = Partial<Omit<ServerConfig, 'rateLimit' | 'ws' | 'passwordHashQueue' | 'downloads'>> & {
  rateLimit?: Partial<ServerConfig['rateLimit']>;
  downloads?: Partial<ServerConfig['downloads']>;
  ws?: Partial<ServerConfig['ws']>;
  passwordHashQueue?: Partial<ServerConfig['passwordHashQueue']>;
};

/** Fills in defaults for what a caller (the CLI, Electron, a test) did not say. */
export function resolveConfig(input: ConfigInput = {}): ServerConfig {
  return {
    ...DEFAULT_CONFIG,
    ...input,
    dataDir: path.resolve(input.dataDir ?? './data'),
    rateLimit: { ...DEFAULT_CONFIG.rateLimit, ...input.rateLimit },
    ws: { ...DEFAULT_CONFIG.ws, ...input.ws },
    downloads: { ...DEFAULT_CONFIG.downloads, ...input.downloads },
    passwordHashQueue: { ...DEFAULT_CONFIG.passwordHashQueue, ...input.passwordHashQueue },
    hostNames: (input.hostNames ?? DEFAULT_CONFIG.hostNames).map(normaliseHostName).filter((n) => n !== ''),
    publicUrl: input.publicUrl == null ? null : parsePublicUrl(input.publicUrl),
    trustedProxies: (input.trustedProxies ?? DEFAULT_CONFIG.trustedProxies).map(parseTrustedProxy).filter((p) => p !== ''),
    pushServices: parsePushServices(input.pushServices ?? DEFAULT_CONFIG.pushServices),
    version: input.version ?? VERSION,
    webDir: input.webDir === undefined ? findWebDir() : input.webDir,
  };
}

/** The only place that reads the environment. */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ConfigInput {
  const input: ConfigInput = {};
  if (env.HOST) input.host = env.HOST;
  if (env.PORT !== undefined && env.PORT !== '') input.port = parsePort(env.PORT);
  if (env.DATA_DIR) input.dataDir = env.DATA_DIR;
  if (env.WEB_DIR) input.webDir = env.WEB_DIR;
  if (env.LOG_LEVEL) input.logLevel = parseLogLevel(env.LOG_LEVEL);
  if (env.PASSWORD_HASH_COST) input.passwordHashCost = parseCost(env.PASSWORD_HASH_COST);
  if (env.FFMPEG_PATH) input.ffmpegPath = env.FFMPEG_PATH;
  if (env.PRIVATE_UNLOCK_MINUTES) input.privateUnlockMs = parseWhole(env.PRIVATE_UNLOCK_MINUTES, 'PRIVATE_UNLOCK_MINUTES', 1, 60) * 60_000;
  if (env.MOUNTS_ROOT) input.mountsRoots = env.MOUNTS_ROOT.split(':').filter(Boolean);
  if (env.HEIF_CONVERT_PATH) input.heifConvertPath = env.HEIF_CONVERT_PATH;
  if (env.MEDIA_CONCURRENCY) input.mediaConcurrency = Math.max(1, Number.parseInt(env.MEDIA_CONCURRENCY, 10) || 1);
  if (env.DRIVE_TOOLS) input.driveTools = parseDriveTools(env.DRIVE_TOOLS);
  if (env.FIND_FACES) input.findFaces = env.FIND_FACES !== '0' && env.FIND_FACES !== 'false';
  if (env.FIND_THINGS) input.findThings = env.FIND_THINGS !== '0' && env.FIND_THINGS !== 'false';
  if (env.MEDIA_WORKERS_AT_START) input.mediaWorkersAtStart = env.MEDIA_WORKERS_AT_START !== '0' && env.MEDIA_WORKERS_AT_START !== 'false';
  if (env.HOST_NAMES) input.hostNames = env.HOST_NAMES.split(',');
  if (env.HTTPS) input.https = parseSwitch(env.HTTPS, 'HTTPS');
  if (env.PUBLIC_URL) input.publicUrl = parsePublicUrl(env.PUBLIC_URL);
  if (env.TRUSTED_PROXIES) input.trustedProxies = env.TRUSTED_PROXIES.split(',');
  if (env.TRUSTED_PROXY_HEADER) input.trustedProxyHeader = parseTrustedProxyHeader(env.TRUSTED_PROXY_HEADER);
  if (env.TAILSCALE) input.tailscale = parseTailscale(env.TAILSCALE);
  if (env.TAILSCALE_PATH) input.tailscalePath = env.TAILSCALE_PATH;
  if (env.HEARTH_SQLITE) input.sqliteEngine = parseSqliteEngine(env.HEARTH_SQLITE);
  if (env.ANNOUNCE) input.announce = parseSwitch(env.ANNOUNCE, 'ANNOUNCE');
  if (env.DOWNLOAD_STALL_SECONDS)
    (input.downloads ??= {}).stallMs = parseWhole(env.DOWNLOAD_STALL_SECONDS, 'DOWNLOAD_STALL_SECONDS', 5, 3600) * 1000;
  if (env.DOWNLOADS_PER_ADDRESS)
    (input.downloads ??= {}).perAddress = parseWhole(env.DOWNLOADS_PER_ADDRESS, 'DOWNLOADS_PER_ADDRESS', 1, 10_000);
  if (env.DOWNLOADS_PER_SESSION)
    (input.downloads ??= {}).perSession = parseWhole(env.DOWNLOADS_PER_SESSION, 'DOWNLOADS_PER_SESSION', 1, 10_000);
  if (env.DOWNLOADS_PER_LINK) (input.downloads ??= {}).perLink = parseWhole(env.DOWNLOADS_PER_LINK, 'DOWNLOADS_PER_LINK', 1, 10_000);
  if (env.PUSH_SERVICES) input.pushServices = env.PUSH_SERVICES.split(',');
  if (env.BACKUP_BUCKET_FILES_AT_ONCE)
    input.backupBucketFilesAtOnce = parseWhole(env.BACKUP_BUCKET_FILES_AT_ONCE, 'BACKUP_BUCKET_FILES_AT_ONCE', 1, 32);
  if (env.STORAGE_RESERVE_MB) input.storageReserveBytes = parseMegabytes(env.STORAGE_RESERVE_MB, 'STORAGE_RESERVE_MB');
  return input;
}

function parseSwitch(raw: string, name: string): boolean {
  if (raw === '1' || raw === 'true') return true;
  if (raw === '0' || raw === 'false') return false;
  throw new Error(`${name} must be 1 or 0, got "${raw}"`);
}

function parseSqliteEngine(raw: string): ServerConfig['sqliteEngine'] {
  if (raw === 'auto' || raw === 'node' || raw === 'better') return raw;
  throw new Error(`HEARTH_SQLITE must be auto, node or better, got "${raw}"`);
}

/** `Family-PC.` and `family-pc` are one name. */
export function normaliseHostName(name: string): string {
  return name.trim().toLowerCase().replace(/\.$/, '');
}

/** An http(s) origin, written without a trailing slash; a path, query or credentials are refused. */
function parsePublicUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new Error(`PUBLIC_URL must be a URL such as http://family-pc.local:8420, got "${raw}"`);
  }
  if (
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.username ||
    url.password ||
    url.search ||
    url.hash ||
    url.pathname !== '/'
  ) {
    throw new Error(`PUBLIC_URL must be an http(s) origin without path, query or credentials, got "${raw}"`);
  }
  return url.origin;
}

/** An address or a CIDR range (`10.0.0.0/8`, `fd00::/8`); a name is refused: it would be resolved by whom? */
function parseTrustedProxy(raw: string): string {
  const entry = raw.trim();
  if (entry === '') return '';
  const [address = '', bits, ...rest] = entry.split('/');
  const version = net.isIP(address);
  const prefix = bits === undefined ? null : Number(bits);
  if (
    version === 0 ||
    rest.length > 0 ||
    (prefix !== null && (!Number.isInteger(prefix) || bits!.trim() === '' || prefix < 0 || prefix > (version === 4 ? 32 : 128)))
  ) {
    throw new Error(`TRUSTED_PROXIES must list addresses or CIDR ranges such as 127.0.0.1 or 10.0.0.0/8, got "${entry}"`);
  }
  return entry.toLowerCase();
}

function parseTailscale(raw: string): ServerConfig['tailscale'] {
  if (raw === 'auto' || raw === 'off') return raw;
  throw new Error(`TAILSCALE must be auto or off, got "${raw}"`);
}

function parseDriveTools(raw: string): ServerConfig['driveTools'] {
  if (raw === 'auto' || raw === 'udisks') return raw;
  throw new Error(`DRIVE_TOOLS must be auto or udisks, got "${raw}"`);
}
