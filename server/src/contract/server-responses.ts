import { z } from 'zod';

/*
 * What the API answers about the server itself: its status and health, its settings, and the
 * owner's view of the running process and its addresses. Declared once, as zod schemas; each
 * type (same name) is `z.output` of its schema (see identity-responses.ts).
 */

/** A disk that takes writes, one that is full, or one the system made read-only. */
export const StorageState = z.enum(['ok', 'full', 'read_only']);
export type StorageState = z.output<typeof StorageState>;

export const StatusResponse = z.object({
  name: z.string(),
  server_id: z.string(),
  version: z.string(),
  setup_required: z.boolean(),
  setup_code_required: z.boolean().describe('Setup from this caller needs the setup code printed where the server was started'),
  // No browser can do it.
  setup_in_desktop_app: z.boolean().describe("Setup happens in the desktop app's window on the PC; POST /setup answers 403 setup_in_app"),
  restoring: z
    .boolean()
    .describe('A restore from a backup is under way (POST /setup/restore); then the server starts again on the restored data'),
  require_device_approval: z.boolean(),
  allow_self_registration: z.boolean(),
  ready: z.boolean(),
  storage: StorageState.describe('Whether new files can be saved: `full` or `read_only` say why not (reads keep working)'),
});
export type StatusResponse = z.output<typeof StatusResponse>;

const Check = z.enum(['ok', 'failing']);
export const HealthResponse = z.object({
  status: Check,
  version: z.string(),
  checks: z.object({
    db: Check,
    storage: z
      .enum([...StorageState.options, 'failing'])
      .describe('`full`: no space left for new files; `read_only`: the system made the disk read-only'),
  }),
});
export type HealthResponse = z.output<typeof HealthResponse>;

/** What the owner's console shows about the running server (admins only: paths are private). */
export const AdminStatus = z.object({
  version: z.string(),
  started_at: z.number().int().describe('When this server process started'),
  uptime_seconds: z.number().int(),
  data_dir: z.string().describe('Where the database and the built-in library live on this PC'),
});
export type AdminStatus = z.output<typeof AdminStatus>;

/** The settings an admin edits. */
export const ServerSettings = z.object({
  server_name: z.string(),
  allow_self_registration: z.boolean(),
  require_device_approval: z.boolean(),
  trash_retention_days: z.number().int(),
  default_quota_bytes: z.number().int().nullable(),
  make_playback_copies: z
    .boolean()
    .describe(
      "Videos some browsers cannot play (an iPhone's HEVC) get a copy they can, made in the background. Off: no new copies; those made are kept",
    ),
  session_tokens_in_urls: z
    .boolean()
    .describe(
      "Whether a session's own access token is accepted as ?access_token= on a node's download, thumbnail and preview, as the contract allows (full scope only; the account's access is checked as with the header). On by default; off, those routes take only the short tokens of POST /nodes/{id}/access-token (what the web app uses), so a session's token never sits in a browser's history or downloads list. The WebSocket takes the session's token either way",
    ),
});
export type ServerSettings = z.output<typeof ServerSettings>;

/** The settings as an account reads them: the editable ones, and where links open (set by PUBLIC_URL, not here). */
export const SettingsView = ServerSettings.extend({
  link_reach: z
    .enum(['home_network', 'internet', 'tailnet'])
    .describe(
      "Read only: where the links this server hands out (public links, invites) open. home_network while their origin is a LAN address, a .local or other home-only name; internet once PUBLIC_URL names a public address; tailnet while links are on the PC's Tailscale name (Tailscale up, no PUBLIC_URL): they open for anyone on the owner's tailnet, at home or away",
    ),
});
export type SettingsView = z.output<typeof SettingsView>;

/** One of this machine's addresses on the home network, and the address a phone opens. */
export const LanAddress = z.object({
  address: z.string(),
  family: z.enum(['IPv4', 'IPv6']),
  // `eth0`, `wlp2s0`, `Wi-Fi`.
  interface: z.string().describe("The adapter's name as the OS reports it"),
  url: z.string().describe('What a phone on the same network opens'),
});
export type LanAddress = z.output<typeof LanAddress>;

/** The ways in from away from home that the server recognises: Tailscale, and a reverse proxy or tunnel (PUBLIC_URL). */
export const AwayAccess = z.object({
  tailscale: z
    .enum(['off', 'not_found', 'not_running', 'running'])
    .describe(
      'What the server last saw of Tailscale on this PC: off (TAILSCALE=off), not_found (not installed), not_running (installed but logged out or stopped), running',
    ),
  tailscale_detail: z
    .string()
    .nullable()
    .describe('Tailscale\'s own words while it is not running ("Tailscale is stopped."); null otherwise'),
  tailnet: z
    .object({
      name: z.string().describe("The PC's name on the tailnet (MagicDNS), e.g. family-pc.tail1234.ts.net"),
      url: z.string().describe('What a phone on the same tailnet opens'),
      addresses: z.array(z.string()).describe("The PC's Tailscale addresses, IPv4 first"),
      https: z.boolean().describe('Whether the server answers HTTPS on the tailnet name with the certificate Tailscale gave'),
      certificate_expires_at: z
        .number()
        .int()
        .nullable()
        .describe("When the tailnet name's certificate ends, ms since the epoch (it is renewed 30 days before); null when there is none"),
      certificate_problem: z.string().nullable().describe('Why there is no certificate, in words for the owner; null when there is one'),
    })
    .nullable()
    .describe('The PC on its tailnet while Tailscale is up; null otherwise'),
  public_url: z.string().nullable().describe('PUBLIC_URL: the address a reverse proxy or tunnel gives this server; null when not set'),
  trusted_proxies: z
    .number()
    .int()
    .describe('How many addresses or ranges TRUSTED_PROXIES lists (their X-Forwarded-* headers are believed)'),
});
export type AwayAccess = z.output<typeof AwayAccess>;

export const NetworkResponse = z.object({
  port: z.number().int(),
  addresses: z.array(LanAddress).describe('IPv4 first; no loopback, link-local or virtual adapters (containers, VMs, VPNs)'),
  local_name: z
    .object({
      host: z
        .string()
        .describe(
          'The name this server announces on the home network (mDNS), such as hearth.local; hearth-2.local when another device had that one',
        ),
      url: z
        .string()
        .describe('What a phone on the same network opens: unlike an address, it stays the same when the router gives the PC another one'),
    })
    .nullable()
    .describe(
      'Null while the server does not announce itself (headless without ANNOUNCE=1, before its owner exists in the desktop app, or when announcing failed)',
    ),
  away: AwayAccess.describe('How the family reaches this server away from home'),
});
export type NetworkResponse = z.output<typeof NetworkResponse>;

/** Whether this server offers HTTPS at home, for the guided page that makes Hearth an app on a phone (no sign-in). */
export const HttpsOfferResponse = z.object({
  available: z.boolean().describe('HTTPS is on and its certificate is ready'),
  authority_fingerprint_sha256: z.string().nullable().describe("SHA-256 of Hearth's certificate authority, as colon-separated hex"),
  authority_name: z.string().nullable().describe('The name a phone lists the authority under'),
});
export type HttpsOfferResponse = z.output<typeof HttpsOfferResponse>;

export const HttpsCheckResponse = z.object({
  secure: z
    .boolean()
    .describe('The request came over HTTPS: asked from a plain-HTTP page, an answer at all means the phone trusts the certificate'),
  authority_fingerprint_sha256: z
    .string()
    .nullable()
    .describe(
      'Over HTTPS, the fingerprint of the authority that signed the certificate this answer came with: the one the phone trusts. The guided page sets it as the hearth_https cookie',
    ),
});
export type HttpsCheckResponse = z.output<typeof HttpsCheckResponse>;

/** Hearth's own certificate authority, as the owner sees it on the Connect page. */
export const HomeAuthority = z.object({
  name: z.string().describe('The name a phone lists it under'),
  fingerprint_sha256: z
    .string()
    .describe('SHA-256 of the authority, colon-separated hex: what a phone shows when it installs it (the same as GET /server/https)'),
  limited: z
    .boolean()
    .describe(
      "Made for TLS servers only, and for this server's names and networks only. False: made by an earlier version, it may vouch for every home-network name and private address",
    ),
  names: z.array(z.string()).describe('The names it may vouch for (each with the names under it)'),
  addresses: z.array(z.string()).describe('The address ranges it may vouch for, as network/prefix length'),
  given_to_phones: z
    .boolean()
    .describe(
      'Phones may hold it (downloaded from the guided page, or made by an earlier version): it is made again only when the owner asks',
    ),
  expires_at: z.number().int().describe('When it ends (ms since the epoch)'),
});
export type HomeAuthority = z.output<typeof HomeAuthority>;

/** HTTPS at home, for the owner. */
export const HomeHttpsView = z.object({
  available: z.boolean().describe('HTTPS is on and its certificate is ready'),
  authority: HomeAuthority.nullable().describe('Null with HTTPS off (HTTPS=0), or before the first start made it'),
  uncovered: z
    .array(z.string())
    .describe(
      'Names and addresses phones use now that the authority may not vouch for, so the certificate leaves them out: HTTPS there needs a new authority',
    ),
});
export type HomeHttpsView = z.output<typeof HomeHttpsView>;
